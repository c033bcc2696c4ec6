import { setting } from "../config/env.ts";
import { type AllowHost, assertPublicUrl } from "./ssrf-guard.ts";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Loopback receivers are reachable only in development (WEBHOOKS_ALLOW_HTTP); nothing private ever is. */
export const webhookAllowHost: AllowHost = (hostname) =>
  setting("WEBHOOKS_ALLOW_HTTP") && LOOPBACK.has(hostname.replace(/^\[|\]$/g, "").toLowerCase());

/** A webhook URL that is not https (plain http only to an allowed loopback host). */
export class NotHttpsError extends Error {}

/**
 * The one rule for a webhook endpoint's URL, when it is saved and at every attempt: https only;
 * plain http only to a loopback host with WEBHOOKS_ALLOW_HTTP set (development); never a private,
 * loopback or reserved address otherwise (ssrf-guard's BlockedAddressError). Names are checked again when the
 * request connects (guardedLookupFor), since what they resolve to can change.
 */
export function assertWebhookUrl(url: URL): void {
  if (url.protocol !== "https:" && !(url.protocol === "http:" && webhookAllowHost(url.hostname))) {
    throw new NotHttpsError(`${url.protocol} is not https`);
  }
  assertPublicUrl(url, webhookAllowHost, { anyPort: true });
}
