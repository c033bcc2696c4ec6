import { rateLimitClock } from "./rate-limit-clock.ts";
import type { BucketRequest, RateLimitStore, TakeResult } from "./rate-limit-store.ts";

interface Bucket {
  tokens: number;
  at: number;
  /** When the bucket is full again; a missing bucket is a full one, so it may be forgotten then. */
  fullAt: number;
}

const SWEEP_ABOVE = 10_000;

/**
 * Token buckets in this process's memory: exact for one instance, and the fallback of the Redis
 * store. All buckets of one request are checked before any is charged, so a refusal costs nothing.
 */
export function memoryStore(clock: () => number = () => Date.now() + rateLimitClock.offsetMs): RateLimitStore {
  const buckets = new Map<string, Bucket>();
  return {
    kind: "memory",
    async take(requests: readonly BucketRequest[]): Promise<TakeResult> {
      const now = clock();
      const levels = requests.map((request) => levelOf(buckets.get(request.key), request, now));
      const allowed = levels.every((level) => level >= 1);
      const after = allowed ? levels.map((level) => level - 1) : levels;
      requests.forEach((request, i) => {
        const tokens = after[i] ?? request.capacity;
        const fullAt = now + ((request.capacity - tokens) / request.refillPerSecond) * 1000;
        buckets.set(request.key, { tokens, at: now, fullAt });
      });
      if (buckets.size > SWEEP_ABOVE) sweep(buckets, now);
      return { allowed, levels: after };
    },
  };
}

function levelOf(bucket: Bucket | undefined, request: BucketRequest, now: number): number {
  if (!bucket) return request.capacity;
  const refilled = bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * request.refillPerSecond;
  return Math.min(request.capacity, refilled);
}

function sweep(buckets: Map<string, Bucket>, now: number): void {
  for (const [key, bucket] of buckets) if (bucket.fullAt <= now) buckets.delete(key);
}
