/**
 * The environment every vitest suite (npm test, npm run reliability) runs under. Server processes
 * the suites spawn measure and test requests alone: no delivery loop, no upkeep timer (a test that
 * wants the in-process worker turns it on for its own store). Rate limits are raised so one token
 * may make many calls; test/limits sets the spec's numbers back where it tests them.
 */
export function suiteEnv(rateLimitCapacity: string): Record<string, string> {
  return {
    NEXT_TELEMETRY_DISABLED: "1",
    WEBHOOKS_WORKER: "off",
    CATALOG_WORKER: "off",
    UPKEEP_TIMER: "off",
    // Providers are on by default; the suites never reach the internet (tests that exercise
    // providers point them at a fixture server on 127.0.0.1).
    RESOLVER_PROVIDERS: "off",
    PGLITE_DIR: process.env.PGLITE_DIR ?? "memory://",
    RATE_LIMIT_CAPACITY: process.env.RATE_LIMIT_CAPACITY ?? rateLimitCapacity,
    RATE_LIMIT_RESOLVER_CAPACITY: process.env.RATE_LIMIT_RESOLVER_CAPACITY ?? rateLimitCapacity,
  };
}
