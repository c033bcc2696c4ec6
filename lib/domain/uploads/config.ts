import path from "node:path";
import { type Env, setting } from "../../config/env.ts";
import { siteUrlFrom } from "../../http/site-url.ts";

export interface S3Config {
  bucket: string;
  region: string;
  /** Unset for AWS itself; set for Supabase Storage, R2, MinIO. */
  endpoint?: string;
  /** Path-style addressing (bucket in the path), which most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (AWS_ACCESS_KEY_ID, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export type StorageConfig =
  | { driver: "local"; dir: string; siteUrl: string; dataDir: string }
  | { driver: "s3"; s3: S3Config };

/**
 * Read on every call (not at import) so the process picks up its environment as it is:
 * S3_BUCKET selects the S3-compatible driver; otherwise bytes go to the local disk.
 */
export function storageConfig(env?: Env): StorageConfig {
  const bucket = setting("S3_BUCKET", env);
  if (bucket) {
    const accessKeyId = setting("S3_ACCESS_KEY_ID", env);
    const secretAccessKey = setting("S3_SECRET_ACCESS_KEY", env);
    const endpoint = setting("S3_ENDPOINT", env);
    return {
      driver: "s3",
      s3: {
        bucket,
        region: setting("S3_REGION", env),
        endpoint,
        forcePathStyle: setting("S3_FORCE_PATH_STYLE", env) ?? Boolean(endpoint),
        credentials:
          accessKeyId && secretAccessKey
            ? { accessKeyId, secretAccessKey, sessionToken: setting("S3_SESSION_TOKEN", env) }
            : undefined,
      },
    };
  }
  const dataDir = path.join(/*turbopackIgnore: true*/ process.cwd(), ".data");
  return {
    driver: "local",
    // Uploaded bytes are data, never part of the server bundle.
    dir: path.resolve(/*turbopackIgnore: true*/ setting("UPLOADS_DIR", env) ?? path.join(dataDir, "uploads")),
    siteUrl: siteUrlFrom(env),
    dataDir,
  };
}
