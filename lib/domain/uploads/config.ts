import path from "node:path";
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
export function storageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  const bucket = env.S3_BUCKET?.trim();
  if (bucket) {
    const accessKeyId = env.S3_ACCESS_KEY_ID?.trim();
    const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim();
    const endpoint = env.S3_ENDPOINT?.trim() || undefined;
    return {
      driver: "s3",
      s3: {
        bucket,
        region: env.S3_REGION?.trim() || "us-east-1",
        endpoint,
        forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === "true" : Boolean(endpoint),
        credentials:
          accessKeyId && secretAccessKey
            ? { accessKeyId, secretAccessKey, sessionToken: env.S3_SESSION_TOKEN?.trim() || undefined }
            : undefined,
      },
    };
  }
  const dataDir = path.join(/*turbopackIgnore: true*/ process.cwd(), ".data");
  return {
    driver: "local",
    // Uploaded bytes are data, never part of the server bundle.
    dir: path.resolve(/*turbopackIgnore: true*/ env.UPLOADS_DIR?.trim() || path.join(dataDir, "uploads")),
    siteUrl: siteUrlFrom(env),
    dataDir,
  };
}
