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
  /** How long a reservation stays in flight before another request may take it over (crashed holder). */
  leaseSeconds: 60,
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
