import { asService, getDb } from "../db/index.ts";
import type { Scope } from "../../registry/scopes.ts";
import { type TokenCaller, tokenCaller } from "./caller.ts";
import type { CredentialLimits } from "./credential-limits.ts";
import { limitsFromStore, limitsToStore } from "./limits-json.ts";
import { tokenCache } from "./token-cache.ts";
import { generateToken, hashToken, isWellFormedToken } from "./token-format.ts";

import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS } from "./token-format.ts";

export { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS };

export interface TokenRecord {
  id: string;
  name: string;
  last4: string;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** null: no limits beyond the scopes. */
  limits: CredentialLimits | null;
}

const TOKEN_COLUMNS = `id, name, last4, scopes, limits,
  to_jsonb(created_at) #>> '{}' as created_at, to_jsonb(expires_at) #>> '{}' as expires_at,
  to_jsonb(revoked_at) #>> '{}' as revoked_at, to_jsonb(last_used_at) #>> '{}' as last_used_at`;

/** Returns the secret once; only its hash is stored. */
export async function createToken(input: {
  memberId: string;
  name: string;
  scopes: readonly Scope[];
  days?: number;
  /** An exact expiry instead of days: in the future and at most MAX_TOKEN_DAYS away (checked here). */
  expiresAt?: Date;
  /** Checked by the caller (lib/web/credential-limits-form.ts, the CLI); fixed for the token's life. */
  limits?: CredentialLimits | null;
}): Promise<{ token: string; record: TokenRecord }> {
  const days = input.days ?? DEFAULT_TOKEN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
    throw new RangeError(`days must be an integer from 1 to ${MAX_TOKEN_DAYS}`);
  }
  const at = input.expiresAt;
  if (at && !isAllowedExpiry(at)) throw new RangeError(`expiresAt must be in the next ${MAX_TOKEN_DAYS} days`);
  const token = generateToken();
  const [record] = await asService((tx) =>
    tx.query<TokenRecord>(
      `insert into app_private.access_tokens (member_id, name, token_hash, last4, scopes, expires_at, limits)
       values ($1, $2, $3, $4, $5, coalesce($7::timestamptz, now() + make_interval(days => $6)), $8::jsonb)
       returning ${TOKEN_COLUMNS}`,
      [
        input.memberId,
        input.name,
        hashToken(token),
        token.slice(-4),
        [...new Set(input.scopes)],
        days,
        at?.toISOString() ?? null,
        jsonOrNull(limitsToStore(input.limits)),
      ],
    ),
  );
  if (!record) throw new Error("token insert returned nothing");
  return { token, record: withLimits(record) };
}

/** A custom expiry: later than now and no more than MAX_TOKEN_DAYS ahead. */
export function isAllowedExpiry(at: Date, now = Date.now()): boolean {
  const t = at.getTime();
  return Number.isFinite(t) && t > now && t <= now + MAX_TOKEN_DAYS * 86_400_000;
}

/** Renames one of the member's tokens (revoked ones too: the name is only a label). */
export async function renameToken(id: string, memberId: string, name: string): Promise<boolean> {
  const rows = await asService((tx) =>
    tx.query(`update app_private.access_tokens set name = $3 where id = $1 and member_id = $2 returning id`, [
      id,
      memberId,
      name,
    ]),
  );
  return rows.length > 0;
}

export async function listTokens(memberId: string): Promise<TokenRecord[]> {
  const rows = await asService((tx) =>
    tx.query<TokenRecord>(
      `select ${TOKEN_COLUMNS} from app_private.access_tokens where member_id = $1 order by created_at desc, id desc`,
      [memberId],
    ),
  );
  return rows.map(withLimits);
}

const jsonOrNull = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));
const withLimits = (record: TokenRecord): TokenRecord => ({ ...record, limits: limitsFromStore(record.limits) });

/** Revokes at once; with memberId, only that member's token. Answers whether a live token was revoked. */
export async function revokeToken(id: string, memberId?: string): Promise<boolean> {
  const rows = await asService((tx) =>
    tx.query<{ hash: string }>(
      `update app_private.access_tokens set revoked_at = now()
       where id = $1 and revoked_at is null and ($2::uuid is null or member_id = $2::uuid)
       returning encode(token_hash, 'hex') as hash`,
      [id, memberId ?? null],
    ),
  );
  // Other instances hear of it by NOTIFY (a trigger); this one need not wait for its own.
  for (const row of rows) tokenCache().forget(row.hash);
  return rows.length > 0;
}

/**
 * One round trip: finds a live token by hash and, at most once a minute, stamps last_used_at.
 * The stamp skips a row another request holds, so bookkeeping never waits or fails a request.
 * A single statement is atomic on its own, so no BEGIN/COMMIT around it: with them, the look-up
 * cost 40% of the list ceiling's throughput on Postgres; without, a few percent (npm run bench).
 */
export async function authenticateToken(token: string): Promise<TokenCaller | null> {
  if (!isWellFormedToken(token)) return null;
  const db = await getDb();
  const hash = hashToken(token);
  const key = hash.toString("hex");
  const cache = tokenCache();
  const cached = (await cache.ready(db)) ? cache.get(key) : undefined;
  if (cached?.kind === "token") return cached;
  const startedAt = Date.now();
  const [row] = await db.query<{
    id: string;
    member_id: string;
    scopes: string[];
    limits: unknown;
    expires_ms: number;
  }>(
    `with live as (
       select id, member_id, scopes, limits, expires_at, last_used_at from app_private.access_tokens
       where token_hash = $1 and revoked_at is null and expires_at > now()
     ), stamp as (
       update app_private.access_tokens t set last_used_at = now()
       where t.id = (
         select l.id from live l
         where l.last_used_at is null or l.last_used_at < now() - interval '1 minute'
       )
       and t.id in (select a.id from app_private.access_tokens a where a.id = t.id for update skip locked)
       returning t.id
     )
     select id, member_id, scopes, limits, (extract(epoch from expires_at) * 1000)::float8 as expires_ms from live`,
    [hash],
  );
  if (!row) return null;
  const caller = tokenCaller(row.member_id, row.id, row.scopes, false, limitsFromStore(row.limits));
  // Shared by every request the entry serves, so frozen.
  cache.set(key, Object.freeze({ ...caller, cached: true as const }), Number(row.expires_ms), startedAt);
  return caller;
}
