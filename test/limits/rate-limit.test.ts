import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { capabilities, capabilityByTool } from "@/registry/capabilities";
import { execute } from "@/lib/pipeline/execute";
import { sessionCaller } from "@/lib/auth/caller";
import { ApiError } from "@/lib/http/problem";
import { policiesFor } from "@/lib/http/rate-limit";
import { rateLimitClock } from "@/lib/http/rate-limit-clock";
import { api } from "../support/api";
import { makeMember, tokenFor } from "../support/factories";
import { SPEC_LIMITS, useEnv } from "./test-setup";

/** Through the real route (memory store on PGlite, Redis in the server pass where REDIS_URL is set). */
describe("per-token rate limits", () => {
  const setEnv = useEnv();

  it("advertises the spec's policy on every authenticated response", async () => {
    setEnv(SPEC_LIMITS);
    const ada = await makeMember();
    const first = await api("GET", "/collections", { token: ada.token });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"token";q=30;w=15');
    expect(first.headers.get("ratelimit")).toBe('"token";r=29;t=1');
    const refused = await api("GET", "/collections/00000000-0000-4000-8000-000000000000", { token: ada.token });
    expect(refused.status).toBe(404);
    // 28 left, or 29 when a busy machine took over half a second between the two calls.
    expect(refused.headers.get("ratelimit")).toMatch(/^"token";r=2[89];t=1$/);
  });

  it("lets a burst of 30 through and answers the 31st with 429, Retry-After and the policy", async () => {
    // The spec's bucket, with a refill too slow to add a token while the burst runs.
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_REFILL_PER_SECOND: "0.02" });
    const ada = await makeMember();
    const remaining: string[] = [];
    for (let i = 0; i < 30; i++) {
      const ok = await api("GET", "/collections", { token: ada.token });
      expect(ok.status).toBe(200);
      remaining.push(ok.headers.get("ratelimit") ?? "");
    }
    expect(remaining[0]).toMatch(/^"token";r=29;t=\d+$/);
    expect(remaining[29]).toMatch(/^"token";r=0;t=\d+$/);
    const refused = await api("GET", "/collections", { token: ada.token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: "rate_limited", "violated-policies": ["token"] });
    expect(refused.headers.get("ratelimit-policy")).toBe('"token";q=30;w=1500');
    expect(refused.headers.get("ratelimit")).toMatch(/^"token";r=0;t=\d+$/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(50);
    expect(refused.headers.get("request-id")).toBeTruthy();
  });

  it("refills as time passes (the limiter's clock moved on, no sleeping)", async () => {
    // The spec's refill of 2 per second on a bucket of 2, so the wait stays short.
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_CAPACITY: "2" });
    const ada = await makeMember();
    let refused = null;
    // Two pass at once; a slow machine may earn a token back meanwhile, so go on until refused.
    for (let i = 0; i < 10 && !refused; i++) {
      const response = await api("GET", "/todos", { token: ada.token });
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.headers.get("retry-after")).toBe("1");
    rateLimitClock.offsetMs += 600;
    try {
      const after = await api("GET", "/todos", { token: ada.token });
      expect(after.status).toBe(200);
    } finally {
      rateLimitClock.offsetMs -= 600;
    }
  });

  it("keeps one bucket per token", async () => {
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_CAPACITY: "3", RATE_LIMIT_REFILL_PER_SECOND: "0.01" });
    const ada = await makeMember();
    const bob = await makeMember();
    for (let i = 0; i < 3; i++) expect((await api("GET", "/goals", { token: ada.token })).status).toBe(200);
    expect((await api("GET", "/goals", { token: ada.token })).status).toBe(429);
    // Another member, and another token of the same member, each have a full bucket.
    expect((await api("GET", "/goals", { token: bob.token })).headers.get("ratelimit")).toMatch(/^"token";r=2;/);
    const second = await tokenFor(ada.id, ["goals:read"]);
    const other = await api("GET", "/goals", { token: second });
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit")).toMatch(/^"token";r=2;/);
  });

  it("gives each browser session its own bucket", async () => {
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_CAPACITY: "1", RATE_LIMIT_REFILL_PER_SECOND: "0.01" });
    const list = capabilityByTool.get("collections_list");
    if (!list) throw new Error("collections_list is missing from the registry");
    const [ada, bob] = [await makeMember(), await makeMember()];
    const session = (memberId: string, sessionId = randomUUID()) => ({
      requestId: "req_test_session",
      headers: new Headers(),
      caller: sessionCaller(memberId, sessionId),
    });
    const adaSession = session(ada.id);
    expect((await execute(list, {}, adaSession)).status).toBe(200);
    expect((await execute(list, {}, session(bob.id))).status).toBe(200);
    // Ada's second browser has a bucket of its own; her first is empty.
    expect((await execute(list, {}, session(ada.id))).status).toBe(200);
    await expect(execute(list, {}, adaSession)).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("does not count requests that fail authentication", async () => {
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_CAPACITY: "2", RATE_LIMIT_REFILL_PER_SECOND: "0.01" });
    for (let i = 0; i < 3; i++) {
      const anonymous = await api("GET", "/goals", { token: "pds_not_a_real_token" });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("ratelimit")).toBeNull();
    }
  });

  it("puts POST /resolve, and only it, under the resolver policy as well", () => {
    const limited = capabilities.filter((capability) => capability.rateLimit === "resolver");
    expect(limited.map((capability) => `${capability.http?.method} ${capability.http?.path}`)).toEqual([
      "POST /resolve",
    ]);
    expect(limited.flatMap(policiesFor).map((policy) => policy.name)).toEqual(["token", "resolver"]);
  });

  it("gives resolver-limited capabilities a tighter bucket on top, charging nothing when refused", async () => {
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_RESOLVER_REFILL_PER_SECOND: "0.01", RATE_LIMIT_REFILL_PER_SECOND: "0.01" });
    const list = capabilityByTool.get("collections_list");
    if (!list) throw new Error("collections_list is missing from the registry");
    // Any capability marked rateLimit: "resolver" gets the second bucket; POST /resolve is one.
    const resolverLike = { ...list, rateLimit: "resolver" as const };
    const ada = await makeMember();
    const call = { requestId: "req_test_resolver", headers: new Headers({ authorization: `Bearer ${ada.token}` }) };
    for (let i = 0; i < 5; i++) {
      const outcome = await execute(resolverLike, {}, call);
      expect(outcome.headers["RateLimit-Policy"]).toBe('"token";q=30;w=3000, "resolver";q=5;w=500');
      expect(outcome.headers.RateLimit).toMatch(
        new RegExp(`^"token";r=${29 - i};t=\\d+, "resolver";r=${4 - i};t=\\d+$`),
      );
    }
    const refused = await execute(resolverLike, {}, call).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    const problem = (refused as ApiError).toProblem("req_test_resolver");
    expect(problem).toMatchObject({ status: 429, code: "rate_limited", "violated-policies": ["resolver"] });
    expect((refused as ApiError).headers["Retry-After"]).toMatch(/^\d+$/);
    // The refused call took nothing from the token bucket: plain calls still see 25 left.
    const plain = await api("GET", "/collections", { token: ada.token });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("ratelimit")).toMatch(/^"token";r=24;/);
  });
});
