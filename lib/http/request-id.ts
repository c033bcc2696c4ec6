import { randomUUID } from "node:crypto";

/** Honours a well-formed incoming Request-Id (from a proxy) so logs line up; otherwise makes one. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("request-id") ?? headers.get("x-request-id");
  return incoming && /^[A-Za-z0-9._-]{8,128}$/.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, "")}`;
}
