import { setting } from "../config/env.ts";

/**
 * The CORS policy of /api/v1 and /api/agent: browser apps on the origins listed in CORS_ORIGINS may
 * call the API with a Bearer token. Never with cookies: Access-Control-Allow-Credentials is never
 * sent, so a browser will not hand a session cookie's answer to another site, and the API reads no
 * cookie anyway. Everything else (the settings pages, MCP) keeps the same-origin default.
 */

export const CORS_ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key"] as const;
export const CORS_EXPOSED_HEADERS = [
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "Link",
  "Idempotent-Replayed",
  "Request-Id",
  // A browser client reads the Bearer challenge to find the authorization server (RFC 9728 §5.1).
  "WWW-Authenticate",
] as const;
/** How long a browser may cache a preflight (Chromium caps it at 2 h). */
const MAX_AGE_SECONDS = 7200;

export interface CorsPolicy {
  any: boolean;
  origins: ReadonlySet<string>;
}

let parsed: { value: string; policy: CorsPolicy } | undefined;

/**
 * CORS_ORIGINS: a comma list of exact origins (scheme://host[:port]), or `*`. Unset: no origin.
 * Parsed once per value: every API answer asks for it.
 */
export function corsPolicy(value = setting("CORS_ORIGINS")): CorsPolicy {
  if (parsed?.value === value) return parsed.policy;
  const policy = parsePolicy(value);
  parsed = { value, policy };
  return policy;
}

function parsePolicy(value: string): CorsPolicy {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const origins = new Set<string>();
  for (const entry of entries) {
    if (entry === "*") continue;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port]).`);
    }
    if (url.origin !== entry.replace(/\/$/, "")) {
      throw new Error(`CORS_ORIGINS: "${entry}" must be an origin only, e.g. ${url.origin}.`);
    }
    origins.add(url.origin);
  }
  return { any: entries.includes("*"), origins };
}

/** The Access-Control-Allow-Origin this request earns, or null when its Origin is not allowed. */
export function allowOriginFor(request: Request, given?: CorsPolicy): string | null {
  const origin = request.headers.get("origin");
  if (!origin) return null;
  const policy = given ?? corsPolicy();
  if (policy.any) return "*";
  return policy.origins.has(origin) ? origin : null;
}

/** The CORS headers of an actual (non-preflight) answer. Vary: Origin always, since they depend on it. */
export function corsHeaders(request: Request, policy?: CorsPolicy): Record<string, string> {
  const allow = allowOriginFor(request, policy);
  const headers: Record<string, string> = { Vary: "Origin" };
  if (allow) {
    headers["Access-Control-Allow-Origin"] = allow;
    headers["Access-Control-Expose-Headers"] = CORS_EXPOSED_HEADERS.join(", ");
  }
  return headers;
}

/**
 * The answer to OPTIONS for a path offering `methods`: 204 with Allow, plus the preflight headers
 * when the Origin is allowed. A refused origin gets no Access-Control-* header, so the browser stops.
 */
export function preflightResponse(request: Request, methods: readonly string[], policy?: CorsPolicy): Response {
  const list = [...new Set(methods)].join(", ");
  const headers: Record<string, string> = { Allow: list, "Cache-Control": "no-store", Vary: "Origin" };
  const allow = allowOriginFor(request, policy);
  if (allow) {
    headers["Access-Control-Allow-Origin"] = allow;
    headers["Access-Control-Allow-Methods"] = list;
    headers["Access-Control-Allow-Headers"] = CORS_ALLOWED_HEADERS.join(", ");
    headers["Access-Control-Max-Age"] = String(MAX_AGE_SECONDS);
    headers.Vary = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";
  }
  return new Response(null, { status: 204, headers });
}

/** Adds the CORS headers to whatever a handler answers (problems included). */
export function withCors<Args extends unknown[]>(
  handler: (request: Request, ...rest: Args) => Promise<Response> | Response,
): (request: Request, ...rest: Args) => Promise<Response> {
  return async (request, ...rest) => {
    const response = await handler(request, ...rest);
    const cors = corsHeaders(request);
    try {
      addCors(response.headers, cors);
      return response;
    } catch {
      // Headers of a fetched response are immutable. A copy wraps a stream around the body (the
      // in-place change above keeps the body as it was built): kept for that case only.
      const headers = new Headers(response.headers);
      addCors(headers, cors);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  };
}

function addCors(headers: Headers, cors: Record<string, string>): void {
  for (const [name, value] of Object.entries(cors)) {
    if (name === "Vary" && headers.has("Vary")) headers.set("Vary", `${headers.get("Vary")}, ${value}`);
    else headers.set(name, value);
  }
}
