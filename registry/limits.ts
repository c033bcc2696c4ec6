/**
 * The service's limits as data: one source for lib/http (which enforces them) and for the reference
 * (which documents them). Numbers here are the spec's defaults; operators may raise them by env
 * (see RATE_LIMIT_ENV), for example for a load test.
 */

export interface RatePolicy {
  /** The policy's name in RateLimit-Policy / RateLimit and in violated-policies. */
  name: "token" | "resolver";
  /** Bucket size: the burst a client may send at once. */
  capacity: number;
  /** Tokens added back per second. */
  refillPerSecond: number;
  appliesTo: string;
}

/** Token bucket per access token: 30 at once, 2 per second after that (= 120 per minute). */
export const TOKEN_POLICY: RatePolicy = {
  name: "token",
  capacity: 30,
  refillPerSecond: 2,
  appliesTo: "Every request made with an access token, on REST and on the tool surfaces alike.",
};

/** The resolver calls upstream services, so it has a tighter bucket on top: 5 at once, 10 per minute. */
export const RESOLVER_POLICY: RatePolicy = {
  name: "resolver",
  capacity: 5,
  refillPerSecond: 10 / 60,
  appliesTo: "Capabilities that call upstream services (POST /resolve), on top of the token policy.",
};

/** Environment variables that override the defaults above (positive numbers). */
export const RATE_LIMIT_ENV = {
  tokenCapacity: "RATE_LIMIT_CAPACITY",
  tokenRefillPerSecond: "RATE_LIMIT_REFILL_PER_SECOND",
  resolverCapacity: "RATE_LIMIT_RESOLVER_CAPACITY",
  resolverRefillPerSecond: "RATE_LIMIT_RESOLVER_REFILL_PER_SECOND",
} as const;

export const LIMIT_HEADERS = {
  policy: "RateLimit-Policy",
  state: "RateLimit",
  retryAfter: "Retry-After",
  idempotencyKey: "Idempotency-Key",
  replayed: "Idempotent-Replayed",
} as const;

export const IDEMPOTENCY = {
  maxKeyLength: 255,
  windowSeconds: 24 * 60 * 60,
} as const;

/**
 * How far back a member may record a missed streak day. The store enforces it through
 * app_private.limit_check_in_max_days_back(), generated from this constant by
 * scripts/build-registry-constants.ts.
 */
export const CHECK_IN_MAX_DAYS_BACK = 7;

/**
 * Events (the pullable log, redelivery) are kept this many days, then purged by the upkeep;
 * app_private.limit_keep_events_days() in SQL (scripts/build-registry-constants.ts).
 */
export const KEEP_EVENTS_DAYS = 30;

/** Request bodies: JSON only, at most this many bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * What the Node server reads and drops of a request body it answered before reading (an early 413
 * or 415), so the client, still sending, reads the answer before the connection closes.
 */
export const DRAIN_LIMIT = { bytes: 4 * MAX_BODY_BYTES, ms: 5_000 };

/** The window a full bucket takes to refill, as the `w` of RateLimit-Policy (whole seconds). */
export const policyWindowSeconds = (policy: RatePolicy) =>
  Math.max(1, Math.round(policy.capacity / policy.refillPerSecond));

/**
 * How the limits read in the reference: one sentence each, rendered as written. The OpenAPI
 * helper can place these under info.description or a "Limits" section.
 */
export const LIMIT_RULES: readonly string[] = [
  `Rate limits are token buckets per access token. Policy "token": ${TOKEN_POLICY.capacity} requests at once, refilled at ${TOKEN_POLICY.refillPerSecond} per second (${TOKEN_POLICY.refillPerSecond * 60} per minute). Policy "resolver": ${RESOLVER_POLICY.capacity} at once, refilled at ${RESOLVER_POLICY.refillPerSecond * 60} per minute, on top of "token" for POST /resolve.`,
  `Every response to a call that passed authentication carries ${LIMIT_HEADERS.policy} (e.g. "token";q=${TOKEN_POLICY.capacity};w=${policyWindowSeconds(TOKEN_POLICY)}: q requests per w seconds, the time a full bucket takes to refill) and ${LIMIT_HEADERS.state} (e.g. "token";r=29;t=1: r requests available now, t seconds until the next one is added), per draft-ietf-httpapi-ratelimit-headers.`,
  `A request over a limit is refused with 429 rate_limited, ${LIMIT_HEADERS.retryAfter} (seconds) and "violated-policies" naming the exhausted policies; a refused request consumes nothing.`,
  "Requests refused before authentication (401, unknown route, 405, unreadable body) are not counted and carry no RateLimit fields: there is no token to count them against. A malformed token is rejected offline by its checksum and a well-formed unknown one costs one indexed lookup; per-address limits belong to the proxy in front.",
  "With REDIS_URL set, buckets live in Redis and hold across instances. If Redis cannot be reached, each instance falls back to its own in-memory buckets (logged, and reported as rate_limit_store by GET /api/v1/health) rather than refusing traffic.",
  `Creates accept ${LIMIT_HEADERS.idempotencyKey} (a structured-field string such as "abc", or a bare token; 1–${IDEMPOTENCY.maxKeyLength} characters, else 400). Keys are kept ${IDEMPOTENCY.windowSeconds / 3600} hours per member. A retry with the same key and payload replays the first response with ${LIMIT_HEADERS.replayed}: true; another payload is 422 idempotency_mismatch; a retry while the first is still running is 409 idempotency_in_flight. A request that fails stores nothing, so it can be retried. The header is ignored on operations that do not create.`,
  `Bodies are JSON (application/json or any +json type; 415 otherwise), at most ${MAX_BODY_BYTES} bytes (413), and must parse as UTF-8 JSON (400). A refused body writes nothing.`,
  'JSON is UTF-8 (RFC 8259): a Content-Type with no charset, or charset=utf-8 (any case, quoted or not; "utf8" too), is read as UTF-8; any other charset (latin1, utf-16, …) is 415 unsupported_media_type, never decoded as UTF-8 behind the client\'s back.',
  `A body refused by its Content-Length or Content-Type (413, 415) is answered before it is read. Any answer given before the request's body has been read to its end carries Connection: close; the server then reads and drops what is still coming, up to ${DRAIN_LIMIT.bytes / MAX_BODY_BYTES} MiB or ${DRAIN_LIMIT.ms / 1000} s, before closing, so a client still sending reads the answer instead of a reset connection.`,
];
