/**
 * Provider answers, cached in process memory for a day. The durable cache is the catalog itself:
 * once an entry is resolved with a provider's help it is stored, and the next resolve of the same
 * id is answered from the catalog without any upstream call. This cache only spares upstream
 * services repeated calls for inputs that did not end in a catalog write (searches, failures).
 */
const TTL_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 2000;

type Holder = typeof globalThis & { __pdsProviderCache?: Map<string, { expires: number; value: unknown }> };
const holder = globalThis as Holder;
const store = () => {
  holder.__pdsProviderCache ??= new Map();
  return holder.__pdsProviderCache;
};

export function cacheGet(key: string): { hit: true; value: unknown } | { hit: false } {
  const entry = store().get(key);
  if (!entry || entry.expires < Date.now()) return { hit: false };
  return { hit: true, value: entry.value };
}

export function cacheSet(key: string, value: unknown): void {
  const map = store();
  map.delete(key);
  map.set(key, { expires: Date.now() + TTL_MS, value });
  // Maps iterate in insertion order: the first key is the least recently written.
  while (map.size > MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

export function clearProviderCache(): void {
  store().clear();
}
