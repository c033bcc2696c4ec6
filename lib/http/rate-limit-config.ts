import { RATE_LIMIT_ENV, RESOLVER_POLICY, type RatePolicy, TOKEN_POLICY } from "../../registry/limits.ts";

/**
 * The policies in force: the registry's defaults, each number overridable by env (a load test
 * raises them; a test lowers the refill to keep waits short). Read per request, so a changed
 * environment applies without a restart; a value that is not a positive number is ignored.
 */
export function activePolicies(env: NodeJS.ProcessEnv = process.env): { token: RatePolicy; resolver: RatePolicy } {
  return {
    token: {
      ...TOKEN_POLICY,
      capacity: positive(env[RATE_LIMIT_ENV.tokenCapacity]) ?? TOKEN_POLICY.capacity,
      refillPerSecond: positive(env[RATE_LIMIT_ENV.tokenRefillPerSecond]) ?? TOKEN_POLICY.refillPerSecond,
    },
    resolver: {
      ...RESOLVER_POLICY,
      capacity: positive(env[RATE_LIMIT_ENV.resolverCapacity]) ?? RESOLVER_POLICY.capacity,
      refillPerSecond: positive(env[RATE_LIMIT_ENV.resolverRefillPerSecond]) ?? RESOLVER_POLICY.refillPerSecond,
    },
  };
}

function positive(value: string | undefined): number | undefined {
  if (!value?.trim()) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
