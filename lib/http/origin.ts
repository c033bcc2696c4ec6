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

/** Whether a host (with or without its port) is this machine: localhost, 127.0.0.1, [::1], *.localhost. */
export function isLocalHostName(host: string): boolean {
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return name === "localhost" || name === "127.0.0.1" || name === "[::1]" || Boolean(name?.endsWith(".localhost"));
}

/**
 * The site's origin as the browser reached it (for links and code shown on a page): the first
 * proxy's X-Forwarded-Proto, else plain http on this machine and https anywhere else.
 */
export function requestOrigin(headers: Headers): string {
  const host = requestHost(headers) || "localhost:3000";
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || (isLocalHostName(host) ? "http" : "https");
  return `${proto}://${host}`;
}
