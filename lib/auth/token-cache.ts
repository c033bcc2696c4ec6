import { setting } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import type { OAuthCaller, TokenCaller } from "./caller.ts";

/**
 * What a live token look-up answered, kept as the caller it makes (marked `cached`): a personal
 * access token or an OAuth access token, both keyed by their hash.
 */
export type CachedToken = (TokenCaller | OAuthCaller) & { cached: true };

interface Entry {
  token: CachedToken;
  /** Epoch ms after which the entry is looked up again: the TTL, or the token's expiry if sooner. */
  until: number;
}

const CHANNEL = "pds_token_revoked";
const DEFAULT_SECONDS = 10;
const MAX_ENTRIES = 10_000;

/**
 * Token look-ups kept for a few seconds per instance, keyed by the token's hash (never the
 * secret). A trigger on access_tokens NOTIFYs the hash on revoke, expiry change or delete, and
 * every instance listening on the database drops it, so revocation takes effect at once across
 * instances. Entries are served only while listening; when the listener (re)starts, notifications
 * may have been missed, so everything is dropped. TOKEN_CACHE_SECONDS=0 turns the cache off.
 */
class TokenCache {
  private entries = new Map<string, Entry>();
  /** Hashes announced lately, with when: a look-up that started before must not be cached. */
  private announced = new Map<string, number>();
  private listening: Promise<boolean> | undefined;
  private listeningOn: Database | undefined;
  private live = false;

  get seconds(): number {
    // Behind a transaction-mode pooler (DATABASE_PREPARE=false) LISTEN is not delivered: off by default.
    return setting("TOKEN_CACHE_SECONDS") ?? (setting("DATABASE_PREPARE") ? DEFAULT_SECONDS : 0);
  }

  /** Starts listening once per process; until it listens, nothing is cached. */
  async ready(db: Database): Promise<boolean> {
    if (this.seconds === 0) return false;
    if (this.listeningOn !== db) {
      // A database opened anew (tests, a restart of lib/db) has no listener yet.
      this.listeningOn = db;
      this.listening = undefined;
      this.live = false;
      this.entries.clear();
    }
    this.listening ??= db
      .listen(
        CHANNEL,
        (hash) => this.forget(hash),
        () => {
          this.entries.clear();
          this.live = true;
        },
      )
      .then(
        () => true,
        (error: unknown) => {
          console.error("token cache: LISTEN failed; looking every token up", error);
          return false;
        },
      );
    return (await this.listening) && this.live;
  }

  get(hash: string): CachedToken | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.token;
    this.entries.delete(hash);
    return undefined;
  }

  /** Drops a token now (this instance revoked it) and keeps look-ups begun before from caching it. */
  forget(hash: string): void {
    const now = Date.now();
    this.entries.delete(hash);
    this.announced.set(hash, now);
    for (const [key, at] of this.announced) if (at < now - 60_000) this.announced.delete(key);
  }

  /** startedAt: when the look-up was sent; an announcement since then means its answer may be stale. */
  set(hash: string, token: CachedToken, expiresAt: number, startedAt: number): void {
    if ((this.announced.get(hash) ?? 0) >= startedAt) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { token, until: Math.min(Date.now() + this.seconds * 1000, expiresAt) });
  }
}

type Holder = typeof globalThis & { __pdsTokenCache?: TokenCache };
const holder = globalThis as Holder;

/** One per process, on globalThis because Next evaluates modules more than once per process. */
export function tokenCache(): TokenCache {
  holder.__pdsTokenCache ??= new TokenCache();
  return holder.__pdsTokenCache;
}
