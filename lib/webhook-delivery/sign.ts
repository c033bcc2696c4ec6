import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { secretKeyBytes } from "../domain/webhooks/secrets.ts";

/**
 * Both signature schemes, one signature per valid secret (during a rotation, the new and the old
 * one): the spec's X-Service-Signature (t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, one v1 per
 * secret) and the Standard Webhooks trio made by its own package (space-separated v1,<base64>).
 */
export function signatureHeaders(
  eventId: string,
  body: string,
  secrets: readonly string[],
  at: Date,
): Record<string, string> {
  const t = Math.floor(at.getTime() / 1000);
  const hex = secrets.map((secret) =>
    createHmac("sha256", secretKeyBytes(secret)).update(`${t}.${body}`).digest("hex"),
  );
  return {
    "x-service-signature": [`t=${t}`, ...hex.map((sig) => `v1=${sig}`)].join(","),
    "webhook-id": eventId,
    "webhook-timestamp": String(t),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, new Date(t * 1000), body)).join(" "),
  };
}
