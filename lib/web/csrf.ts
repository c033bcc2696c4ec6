import { isLocalHostName, originRelation, requestHost } from "../http/origin.ts";

/**
 * Cross-site request check for every state-changing form post of the settings pages.
 * Next.js already aborts a server action whose Origin names another host, but lets a request with
 * no Origin through with a warning; we refuse that too unless the browser vouches for it with
 * Sec-Fetch-Site. Session cookies are SameSite=Lax on top of this.
 */
export function isSameOrigin(headers: Headers): boolean {
  const relation = originRelation(headers);
  return relation === "same" || (relation === "absent" && headers.get("sec-fetch-site") === "same-origin");
}

/** Secure cookies everywhere but plain-HTTP localhost, where a browser would drop them. */
export function isLocalHost(headers: Headers): boolean {
  return isLocalHostName(requestHost(headers));
}
