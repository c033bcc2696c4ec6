import { type Env, setting } from "../config/env.ts";
import { memoryStore } from "./rate-limit-memory.ts";

/** One bucket to charge for a request: its key and the policy's numbers. */
export interface BucketRequest {
  key: string;
  capacity: number;
  refillPerSecond: number;
}

export interface TakeResult {
  /** Every bucket had a token; each was charged one. Otherwise none was charged. */
  allowed: boolean;
  /** Tokens left in each bucket (fractional), in request order. */
  levels: number[];
}

export interface RateLimitStore {
  readonly kind: "memory" | "redis";
  take(requests: readonly BucketRequest[]): Promise<TakeResult>;
  /** What the health check reports: the store in use, or that Redis is down and memory stands in. */
  status?(): Promise<RateLimitStoreStatus>;
  close?(): Promise<void>;
}

export type RateLimitStoreStatus = "memory" | "redis" | "redis_unavailable";

type Holder = typeof globalThis & { __pdsRateLimitStore?: { url: string; store: Promise<RateLimitStore> } };
const holder = globalThis as Holder;

/**
 * The store for this process, made on first use and kept on globalThis (Next evaluates modules
 * more than once per process): Redis when REDIS_URL is set, else memory. A changed REDIS_URL
 * (tests point it elsewhere) replaces the store.
 */
export function rateLimitStore(env?: Env): Promise<RateLimitStore> {
  const url = setting("REDIS_URL", env);
  const current = holder.__pdsRateLimitStore;
  if (current?.url === url) return current.store;
  if (current) void current.store.then((store) => store.close?.()).catch(() => {});
  const store = url
    ? import("./rate-limit-redis.ts").then(({ redisStore }) => redisStore(url))
    : Promise.resolve(memoryStore());
  holder.__pdsRateLimitStore = { url, store };
  return store;
}

export async function rateLimitStoreStatus(): Promise<RateLimitStoreStatus> {
  const store = await rateLimitStore();
  return store.status ? store.status() : store.kind;
}
