import type { Capability } from "../../registry/capabilities.ts";
import { LIMIT_HEADERS, policyWindowSeconds, type RatePolicy } from "../../registry/limits.ts";
import type { Caller } from "../auth/caller.ts";
import { ApiError } from "./problem.ts";
import { activePolicies } from "./rate-limit-config.ts";
import { rateLimitStore } from "./rate-limit-store.ts";

/**
 * Per-token rate limiting: charges the token's bucket (and the resolver's, for capabilities that
 * have one) and answers the RateLimit-Policy and RateLimit fields for the response; throws 429
 * with Retry-After and violated-policies when a bucket is empty.
 */
export async function rateLimit(caller: Caller, capability: Capability): Promise<Record<string, string>> {
  if (caller.kind === "service") return {};
  const policies = policiesFor(capability);
  const store = await rateLimitStore();
  const { allowed, levels } = await store.take(
    policies.map((policy) => ({
      key: bucketKey(caller, policy.name),
      capacity: policy.capacity,
      refillPerSecond: policy.refillPerSecond,
    })),
  );
  const headers = {
    [LIMIT_HEADERS.policy]: policies.map(policyItem).join(", "),
    [LIMIT_HEADERS.state]: policies.map((policy, i) => stateItem(policy, levels[i] ?? 0)).join(", "),
  };
  if (allowed) return headers;
  const violated = policies.flatMap((policy, i) => ((levels[i] ?? 0) < 1 ? [{ policy, level: levels[i] ?? 0 }] : []));
  const retryAfter = Math.max(...violated.map(({ policy, level }) => secondsUntilNext(policy, level)), 1);
  const names = violated.map(({ policy }) => policy.name);
  throw new ApiError(
    "rate_limited",
    `Rate limit reached (${names.map((n) => `"${n}"`).join(", ")}). Retry in ${retryAfter} s.`,
    { headers: { ...headers, [LIMIT_HEADERS.retryAfter]: String(retryAfter) }, violatedPolicies: names },
  );
}

export function policiesFor(capability: Capability): RatePolicy[] {
  const { token, resolver } = activePolicies();
  return capability.rateLimit === "resolver" ? [token, resolver] : [token];
}

/**
 * One bucket per token, one per OAuth grant (its access tokens rotate, the grant stays), and one per
 * signed-in browser session. The hash tag keeps one caller's buckets in one Redis Cluster slot, so
 * one script can touch both.
 */
const bucketKey = (caller: Caller & { kind: "token" | "oauth" | "session" }, policy: string) =>
  `pds:rl:{${bucketOwner(caller)}}:${policy}`;

const bucketOwner = (caller: Caller & { kind: "token" | "oauth" | "session" }) =>
  caller.kind === "token"
    ? `t:${caller.tokenId}`
    : caller.kind === "oauth"
      ? `g:${caller.grantId}`
      : `s:${caller.sessionId}`;

/** `"token";q=30;w=15`: q requests per w seconds, the time an empty bucket takes to fill. */
const policyItem = (policy: RatePolicy) =>
  `"${policy.name}";q=${Math.floor(policy.capacity)};w=${policyWindowSeconds(policy)}`;

/** `"token";r=29;t=1`: r requests available now; t seconds until the next one is added. */
const stateItem = (policy: RatePolicy, level: number) =>
  `"${policy.name}";r=${Math.max(0, Math.floor(level))};t=${level >= policy.capacity ? 0 : secondsUntilNext(policy, level)}`;

/** Whole seconds until the bucket holds one more whole token than now. */
function secondsUntilNext(policy: RatePolicy, level: number): number {
  const missing = Math.floor(level) + 1 - level;
  return Math.max(1, Math.ceil(missing / policy.refillPerSecond));
}
