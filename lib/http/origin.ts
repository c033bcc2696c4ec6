/** The host a request was sent to, as the browser saw it (the first proxy hop's, if any). */
export function requestHost(headers: Headers): string {
  return (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
}

/**
 * How a request's Origin relates to its host: "same", "cross" (another site, the opaque "null"
 * origin, or a value that is not a bare origin), or "absent" (a non-browser client, or a
 * same-origin GET). Each caller decides what an absent Origin means: forms require more proof,
 * API clients send none.
 */
export function originRelation(headers: Headers): "same" | "cross" | "absent" {
  const value = headers.get("origin");
  if (value === null) return "absent";
  const origin = parseOrigin(value);
  const host = requestHost(headers);
  if (!origin || host === "") return "cross";
  return normalHost(origin.scheme, host) === origin.host ? "same" : "cross";
}

// Only what a serialized origin may hold after the scheme: a host (a name, an IPv4 or a bracketed
// IPv6 address, non-ASCII letters of a name) and a port. No userinfo (@), path (/ or \), query,
// fragment, percent-escape or space: the URL parser would drop or decode those and compare only
// what is left, so "http://evil.example@pds.example" would read as pds.example.
const ORIGIN_SHAPE = /^(https?):\/\/([^\s/\\?#@%:[\]]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/iu;

/**
 * A browser's Origin header strictly parsed: the scheme and the host with its port (lower case,
 * IDNA to ASCII, the scheme's default port left out), or null for "null", another scheme, or
 * anything beyond scheme, host and port.
 */
export function parseOrigin(value: string): { scheme: "http" | "https"; host: string } | null {
  const shape = ORIGIN_SHAPE.exec(value);
  if (!shape?.[1]) return null;
  const scheme = shape[1].toLowerCase() as "http" | "https";
  const host = normalHost(scheme, value.slice(shape[1].length + 3));
  return host === null ? null : { scheme, host };
}

/** host[:port] as the URL parser writes it for this scheme, or null when it is not a valid host. */
function normalHost(scheme: "http" | "https", host: string): string | null {
  try {
    const url = new URL(`${scheme}://${host}`);
    return url.username || url.password || url.pathname !== "/" || url.search || url.hash ? null : url.host;
  } catch {
    return null;
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
