/**
 * The first level of the resolver cache: provider answers in process memory, for at most as long
 * as the shared database cache (durable-cache.ts) keeps them. It spares the database a read per
 * provider call; the database level is what survives restarts and is shared by instances.
 */
const MAX_ENTRIES = 2000;

/** A provider's answer, or a definite failure to repeat (a refused request) until it expires. */
export interface CachedAnswer {
  value: unknown;
  failure?: { code: string; message: string };
}

type Holder = typeof globalThis & { __pdsProviderCache?: Map<string, { expires: number; answer: CachedAnswer }> };
const holder = globalThis as Holder;
const store = () => {
  holder.__pdsProviderCache ??= new Map();
  return holder.__pdsProviderCache;
};

export function cacheGet(key: string): CachedAnswer | undefined {
  const entry = store().get(key);
  return entry && entry.expires > Date.now() ? entry.answer : undefined;
}

export function cacheSet(key: string, answer: CachedAnswer, expires: number): void {
  const map = store();
  map.delete(key);
  if (expires <= Date.now()) return;
  map.set(key, { expires, answer });
  // Maps iterate in insertion order: the first key is the least recently written.
  while (map.size > MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/** Forgets this process's copies (tests use it to stand for a restart or another instance). */
export function clearProviderCache(): void {
  store().clear();
}
