import path from "node:path";
import { type Env, setting } from "../../config/env.ts";
import { mustUseServerDatabase } from "../../db/config.ts";
import { MIN_SECRET_LENGTH as MIN_LENGTH, readOrCreateSecret } from "../generated-secret.ts";

const FILE_NAME = "upload-signing-secret";

type Holder = typeof globalThis & { __pdsUploadSecret?: { source: string; secret: Buffer } };
const holder = globalThis as Holder;

/**
 * The HMAC key of the local storage route: UPLOAD_SIGNING_SECRET when set (required when several
 * instances share the load), otherwise generated once into <data dir>/upload-signing-secret with
 * mode 0600, so URLs minted before a restart stay valid.
 */
export function uploadSigningSecret(dataDir: string, env?: Env): Buffer {
  const configured = setting("UPLOAD_SIGNING_SECRET", env);
  if (configured) {
    if (configured.length < MIN_LENGTH) {
      throw new Error(`UPLOAD_SIGNING_SECRET must be at least ${MIN_LENGTH} characters`);
    }
    return Buffer.from(configured, "utf8");
  }
  if (mustUseServerDatabase(env)) {
    throw new Error(
      "UPLOAD_SIGNING_SECRET is not set, and a generated secret is refused in production: set UPLOAD_SIGNING_SECRET (32+ random characters).",
    );
  }
  // The file is read once per process and folder, not on every signature.
  const source = path.join(/*turbopackIgnore: true*/ dataDir, FILE_NAME);
  if (holder.__pdsUploadSecret?.source === source) return holder.__pdsUploadSecret.secret;
  const secret = Buffer.from(readOrCreateSecret(source), "utf8");
  holder.__pdsUploadSecret = { source, secret };
  return secret;
}
