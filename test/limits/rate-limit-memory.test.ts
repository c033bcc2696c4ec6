import { describe, expect, it } from "vitest";
import { memoryStore } from "@/lib/http/rate-limit-memory";
import { TOKEN_POLICY } from "@/registry/limits";

/** The bucket arithmetic on the spec's numbers, with an injected clock instead of waiting. */
describe("token bucket (memory store, injected clock)", () => {
  const bucket = { key: "t1:token", capacity: TOKEN_POLICY.capacity, refillPerSecond: TOKEN_POLICY.refillPerSecond };

  it("allows 30 at once, refuses the 31st, then gives back 2 per second up to 30", async () => {
    let now = 1_000_000;
    const store = memoryStore(() => now);
    for (let i = 0; i < 30; i++) expect((await store.take([bucket])).allowed).toBe(true);
    const refused = await store.take([bucket]);
    expect(refused).toEqual({ allowed: false, levels: [0] });
    now += 499;
    expect((await store.take([bucket])).allowed).toBe(false);
    now += 1;
    expect(await store.take([bucket])).toEqual({ allowed: true, levels: [0] });
    now += 60_000; // a long pause refills to the capacity, not beyond
    expect(await store.take([bucket])).toEqual({ allowed: true, levels: [29] });
  });

  it("charges several buckets together or not at all", async () => {
    const now = 0;
    const store = memoryStore(() => now);
    const tight = { key: "t1:resolver", capacity: 1, refillPerSecond: 1 / 6 };
    expect((await store.take([bucket, tight])).levels).toEqual([29, 0]);
    expect(await store.take([bucket, tight])).toEqual({ allowed: false, levels: [29, 0] });
    expect((await store.take([bucket])).levels).toEqual([28]);
  });
});
