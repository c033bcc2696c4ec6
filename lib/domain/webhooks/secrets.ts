import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { type Env, setting } from "../../config/env.ts";
import { mustUseServerDatabase } from "../../db/config.ts";
import { MIN_SECRET_LENGTH as MIN_LENGTH, readOrCreateSecret } from "../generated-secret.ts";

const FILE_NAME = "webhook-secrets-key";

type Holder = typeof globalThis & { __pdsWebhookKey?: { source: string; key: Buffer } };
const holder = globalThis as Holder;

/** A new signing secret in the Standard Webhooks form: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** The HMAC key a secret stands for: the bytes of its base64 part (as Standard Webhooks defines). */
export const secretKeyBytes = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ""), "base64");

/**
 * The AES-256 key that encrypts stored secrets: SHA-256 of WEBHOOK_SECRETS_KEY when set (required
 * when several instances serve), else generated once into .data/webhook-secrets-key (mode 0600),
 * as the upload signing secret is.
 */
export function webhookSecretsKey(env?: Env): Buffer {
  const configured = setting("WEBHOOK_SECRETS_KEY", env);
  if (configured) {
    if (configured.length < MIN_LENGTH)
      throw new Error(`WEBHOOK_SECRETS_KEY must be at least ${MIN_LENGTH} characters`);
    return createHash("sha256").update(configured).digest();
  }
  if (mustUseServerDatabase(env)) {
    throw new Error(
      "WEBHOOK_SECRETS_KEY is not set, and a generated key is refused in production: set WEBHOOK_SECRETS_KEY (32+ random characters).",
    );
  }
  const source = path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", FILE_NAME);
  if (holder.__pdsWebhookKey?.source === source) return holder.__pdsWebhookKey.key;
  const text = readOrCreateSecret(source);
  const key = createHash("sha256").update(text).digest();
  holder.__pdsWebhookKey = { source, key };
  return key;
}

/** AES-256-GCM, bound to its endpoint (additional data), as v1.<base64url iv|tag|ciphertext>. */
export function encryptSecret(secret: string, endpointId: string, key = webhookSecretsKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(endpointId));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export function decryptSecret(sealed: string, endpointId: string, key = webhookSecretsKey()): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ""), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(endpointId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
