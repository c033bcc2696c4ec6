/** The host a request was sent to, as the browser saw it (the first proxy hop's, if any). */
export function requestHost(headers: Headers): string {
  return (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
}

/**
 * How a request's Origin relates to its host: "same", "cross" (another site, or the opaque
 * "null" origin), or "absent" (a non-browser client, or a same-origin GET). Each caller decides
 * what an absent Origin means: forms require more proof, API clients send none.
 */
export function originRelation(headers: Headers): "same" | "cross" | "absent" {
  const origin = headers.get("origin");
  if (origin === null) return "absent";
  if (origin === "null") return "cross";
  const host = requestHost(headers);
  try {
    return host !== "" && new URL(origin).host.toLowerCase() === host ? "same" : "cross";
  } catch {
    return "cross";
  }
}
