import { RATE_LIMIT_ENV, RESOLVER_POLICY, type RatePolicy, TOKEN_POLICY } from "../../registry/limits.ts";
import { type Env, setting } from "../config/env.ts";

/**
 * The policies in force: the registry's defaults, each number overridable by env (a load test
 * raises them; a test lowers the refill to keep waits short). Read per request, so a changed
 * environment applies without a restart; a value that is not a positive number is ignored.
 */
export function activePolicies(env?: Env): { token: RatePolicy; resolver: RatePolicy } {
  return {
    token: {
      ...TOKEN_POLICY,
      capacity: setting(RATE_LIMIT_ENV.tokenCapacity, env),
      refillPerSecond: setting(RATE_LIMIT_ENV.tokenRefillPerSecond, env),
    },
    resolver: {
      ...RESOLVER_POLICY,
      capacity: setting(RATE_LIMIT_ENV.resolverCapacity, env),
      refillPerSecond: setting(RATE_LIMIT_ENV.resolverRefillPerSecond, env),
    },
  };
}
