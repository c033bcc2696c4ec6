import { asService, type Queryable } from "../../db/index.ts";
import { type CachedAnswer, cacheGet, cacheSet } from "./cache.ts";
import { cacheTtlSeconds, type ProviderId } from "./config.ts";
import { ProviderError, type ProviderErrorCode } from "./errors.ts";

interface StoredFailure {
  provider: ProviderId;
  code: ProviderErrorCode;
  message: string;
}

/** A cached refusal is thrown again exactly as the provider's answer was, so callers cannot tell. */
function replay(answer: CachedAnswer): unknown {
  if (!answer.failure) return answer.value;
  const { provider, code, message } = answer.failure as StoredFailure;
  throw new ProviderError(provider, code, message, undefined, false, true);
}

async function readShared(key: string): Promise<{ answer: CachedAnswer; expires: number } | undefined> {
  const [row] = await asService((tx) =>
    tx.query<{ value: CachedAnswer; expires: number }>(
      `select value, (extract(epoch from expires_at) * 1000)::float8 as expires
         from app_private.resolver_cache where key = $1 and expires_at > now()`,
      [key],
    ),
  );
  return row && { answer: row.value, expires: Number(row.expires) };
}

async function writeShared(key: string, answer: CachedAnswer, failed: boolean, seconds: number): Promise<void> {
  await asService((tx) =>
    tx.query(
      `insert into app_private.resolver_cache (key, value, failed, expires_at)
       values ($1, $2::jsonb, $3, now() + make_interval(secs => $4))
       on conflict (key) do update
         set value = excluded.value, failed = excluded.failed, expires_at = excluded.expires_at, created_at = now()`,
      [key, JSON.stringify(answer), failed, seconds],
    ),
  );
}

async function remember(key: string, answer: CachedAnswer, failed: boolean): Promise<void> {
  const ttl = cacheTtlSeconds();
  const seconds = failed ? ttl.failure : ttl.answer;
  if (seconds <= 0) return;
  cacheSet(key, answer, Date.now() + seconds * 1000);
  await writeShared(key, answer, failed, seconds);
}

/**
 * Answers one upstream request from the resolver cache, or makes it and caches what it answered.
 * Memory first, then the shared table (each read and write its own short statement as the service:
 * never inside a transaction that waits on the network). An answer is kept RESOLVER_CACHE_TTL_SECONDS;
 * a failed look-up — nothing found (null, or what `isMiss` calls empty) or a request the provider
 * refused (4xx) — only RESOLVER_CACHE_FAILURE_TTL_SECONDS. Outages (timeouts, 5xx, 429, no network,
 * an open circuit) are never cached: the circuit breaker deals with them, and the next resolve retries.
 */
export async function throughCache(
  key: string,
  produce: () => Promise<unknown>,
  isMiss?: (value: unknown) => boolean,
): Promise<unknown> {
  const local = cacheGet(key);
  if (local) return replay(local);
  const shared = await readShared(key);
  if (shared) {
    cacheSet(key, shared.answer, shared.expires);
    return replay(shared.answer);
  }
  let value: unknown;
  try {
    value = await produce();
  } catch (error) {
    if (error instanceof ProviderError && error.clientError && !error.dns) {
      const failure: StoredFailure = { provider: error.provider, code: error.code, message: error.message };
      await remember(key, { value: null, failure }, true);
    }
    throw error;
  }
  await remember(key, { value }, value === null || value === undefined || (isMiss?.(value) ?? false));
  return value;
}

/** Upkeep: rows past their expiry are never read again. */
export async function purgeExpiredResolverCache(tx: Queryable): Promise<number> {
  return (await tx.query("delete from app_private.resolver_cache where expires_at <= now() returning key")).length;
}
