import { asService, getDb, type Queryable } from "../../db/index.ts";
import { type OAuthCaller, oauthCaller } from "../caller.ts";
import { limitsFromStore } from "../limits-json.ts";
import { tokenCache } from "../token-cache.ts";
import { OAuthError } from "./errors.ts";
import { revokeGrantIn } from "./grants.ts";
import {
  isAccessToken,
  isRefreshToken,
  newAccessToken,
  newRefreshToken,
  secretHash,
  verifierMatches,
} from "./secrets.ts";

/** Access tokens are short lived: an hour, then the client refreshes. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A refresh token is good for 30 days from its issue; each use rotates it. */
export const REFRESH_TOKEN_DAYS = 30;

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A failure that must still commit (a reused code or refresh token revokes the grant), then be answered. */
class Refusal {
  readonly error: OAuthError;
  /** Access tokens the refusal revoked (their hashes), forgotten here once it commits. */
  readonly revoked: readonly string[];
  constructor(error: OAuthError, revoked: readonly string[] = []) {
    this.error = error;
    this.revoked = revoked;
  }
}

async function committing<T>(fn: (tx: Queryable) => Promise<T | Refusal>): Promise<T> {
  const outcome = await asService(fn);
  if (outcome instanceof Refusal) {
    // Other instances hear of it by NOTIFY; this one need not wait for its own.
    for (const hash of outcome.revoked) tokenCache().forget(hash);
    throw outcome.error;
  }
  return outcome;
}

const invalidGrant = (why: string) => new OAuthError("invalid_grant", why);

/** A new pair; `narrowed`: the access token carries only these of the grant's scopes (a refresh asked). */
async function issueTokens(
  tx: Queryable,
  grantId: string,
  scopes: readonly string[],
  narrowed = false,
): Promise<TokenResponse> {
  const access = newAccessToken();
  const refresh = newRefreshToken();
  await tx.query(
    `insert into app_private.oauth_tokens (grant_id, kind, token_hash, expires_at, scopes) values
       ($1, 'access', $2, now() + make_interval(secs => $4), $6::text[]),
       ($1, 'refresh', $3, now() + make_interval(days => $5), null)`,
    [
      grantId,
      secretHash(access),
      secretHash(refresh),
      ACCESS_TOKEN_SECONDS,
      REFRESH_TOKEN_DAYS,
      narrowed ? [...scopes] : null,
    ],
  );
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scopes.join(" "),
  };
}

/**
 * The authorization_code grant (OAuth 2.1 §4.1.3): the code once, by the client it was issued to,
 * with the same redirect URI, the PKCE verifier of its challenge, and its resource. A code presented
 * a second time revokes the grant and every token issued from it (RFC 6749 §4.1.2).
 */
export async function exchangeCode(input: {
  code: string;
  clientId: string;
  redirectUri: string;
  codeVerifier: string;
  resource?: string;
}): Promise<TokenResponse> {
  return committing(async (tx) => {
    const [row] = await tx.query<{
      grant_id: string;
      client_id: string;
      redirect_uri: string;
      code_challenge: string;
      resource: string;
      used: boolean;
      expired: boolean;
      revoked: boolean;
      scopes: string[];
    }>(
      `select c.grant_id, c.client_id, c.redirect_uri, c.code_challenge, c.resource,
              c.used_at is not null as used, c.expires_at <= now() as expired,
              g.revoked_at is not null as revoked, g.scopes
       from app_private.oauth_codes c join app_private.oauth_grants g on g.id = c.grant_id
       where c.code_hash = $1 for update of c`,
      [secretHash(input.code)],
    );
    if (!row) return new Refusal(invalidGrant("The code is unknown."));
    if (row.used) {
      const revoked = (await revokeGrantIn(tx, row.grant_id, "code_reuse")) ?? [];
      return new Refusal(invalidGrant("The code was already used; the grant and its tokens are revoked."), revoked);
    }
    if (row.expired || row.revoked) return new Refusal(invalidGrant("The code has expired."));
    if (row.client_id !== input.clientId) return new Refusal(invalidGrant("The code was issued to another client."));
    if (row.redirect_uri !== input.redirectUri) {
      return new Refusal(invalidGrant("redirect_uri differs from the authorization request's."));
    }
    if (!verifierMatches(input.codeVerifier, row.code_challenge)) {
      return new Refusal(invalidGrant("The code_verifier does not match the code_challenge (S256)."));
    }
    if (input.resource !== undefined && input.resource !== row.resource) {
      return new Refusal(new OAuthError("invalid_target", "resource differs from the authorization request's."));
    }
    await tx.query(`update app_private.oauth_codes set used_at = now() where code_hash = $1`, [secretHash(input.code)]);
    return issueTokens(tx, row.grant_id, row.scopes);
  });
}

/**
 * The scopes a refresh asks for (RFC 6749 §6), in the grant's order: none given (or empty), the
 * grant's; else a subset of them. offline_access is accepted beside them, as at authorization, but
 * names nothing of the service: alone it asks for no scope at all, refused rather than read as all.
 */
function askedOfGrant(scope: string | undefined, granted: readonly string[]): string[] | OAuthError {
  const asked = scope?.split(" ").filter(Boolean) ?? [];
  if (!asked.length) return [...granted];
  const wanted = asked.filter((name) => name !== "offline_access");
  const extra = wanted.filter((name) => !granted.includes(name));
  if (extra.length) return new OAuthError("invalid_scope", `Not granted: ${extra.join(" ")}.`);
  if (!wanted.length) return new OAuthError("invalid_scope", "scope names none of the grant's scopes.");
  return granted.filter((name) => wanted.includes(name));
}

/**
 * The refresh_token grant: rotates (the old refresh token is spent, a new pair issued). A spent
 * refresh token presented again means it leaked or was replayed: the whole grant (the token
 * family) is revoked (OAuth 2.1 §4.3.1, Security BCP §4.14.2).
 */
export async function refreshTokens(input: {
  refreshToken: string;
  clientId: string;
  resource?: string;
  scope?: string;
}): Promise<TokenResponse> {
  if (!isRefreshToken(input.refreshToken)) throw invalidGrant("The refresh token is malformed.");
  return committing(async (tx) => {
    const [row] = await tx.query<{
      id: string;
      grant_id: string;
      client_id: string;
      resource: string;
      scopes: string[];
      used: boolean;
      usable: boolean;
    }>(
      `select t.id, t.grant_id, g.client_id, g.resource, g.scopes, t.used_at is not null as used,
              (t.revoked_at is null and t.expires_at > now() and g.revoked_at is null) as usable
       from app_private.oauth_tokens t join app_private.oauth_grants g on g.id = t.grant_id
       where t.token_hash = $1 and t.kind = 'refresh' for update of t`,
      [secretHash(input.refreshToken)],
    );
    if (!row) return new Refusal(invalidGrant("The refresh token is unknown."));
    if (row.client_id !== input.clientId)
      return new Refusal(invalidGrant("The refresh token was issued to another client."));
    if (row.used) {
      const revoked = (await revokeGrantIn(tx, row.grant_id, "refresh_token_reuse")) ?? [];
      return new Refusal(
        invalidGrant("The refresh token was already used; the grant and its tokens are revoked."),
        revoked,
      );
    }
    if (!row.usable) return new Refusal(invalidGrant("The refresh token is expired or revoked."));
    if (input.resource !== undefined && input.resource !== row.resource) {
      return new Refusal(new OAuthError("invalid_target", "resource differs from the grant's."));
    }
    const scopes = askedOfGrant(input.scope, row.scopes);
    if (scopes instanceof OAuthError) return new Refusal(scopes);
    await tx.query(`update app_private.oauth_tokens set used_at = now() where id = $1`, [row.id]);
    return issueTokens(tx, row.grant_id, scopes, scopes.length < row.scopes.length);
  });
}

/**
 * RFC 7009: revokes the token if the client holds it; any other token is answered the same (200),
 * so nothing is learnt. A refresh token takes its grant with it (§2.1), an access token only itself.
 */
export async function revokeOAuthToken(token: string, clientId: string): Promise<void> {
  const kind = isAccessToken(token) ? "access" : isRefreshToken(token) ? "refresh" : null;
  if (!kind) return;
  const hash = secretHash(token);
  // One transaction: the refresh token and its grant go together or not at all.
  const revoked = await asService(async (tx) => {
    const [row] = await tx.query<{ grant_id: string }>(
      `update app_private.oauth_tokens t set revoked_at = coalesce(t.revoked_at, now())
       from app_private.oauth_grants g
       where t.token_hash = $1 and t.kind = $2 and g.id = t.grant_id and g.client_id = $3
       returning t.grant_id`,
      [hash, kind, clientId],
    );
    return kind === "refresh" && row ? ((await revokeGrantIn(tx, row.grant_id, "client")) ?? []) : [];
  });
  for (const forgotten of [hash.toString("hex"), ...revoked]) tokenCache().forget(forgotten);
}

/**
 * An OAuth access token → its caller, as authenticateToken does for personal access tokens: one
 * round trip that finds the live token and grant and, at most once a minute, stamps the grant's
 * last use; kept in the same per-instance cache, dropped at once on revocation.
 */
export async function authenticateAccessToken(token: string): Promise<OAuthCaller | null> {
  if (!isAccessToken(token)) return null;
  const db = await getDb();
  const hash = secretHash(token);
  const key = hash.toString("hex");
  const cache = tokenCache();
  const cached = (await cache.ready(db)) ? cache.get(key) : undefined;
  if (cached?.kind === "oauth") return cached;
  const startedAt = Date.now();
  const [row] = await db.query<{
    id: string;
    grant_id: string;
    member_id: string;
    client_id: string;
    resource: string;
    scopes: string[];
    limits: unknown;
    expires_ms: number;
  }>(
    `with live as (
       select t.id, t.grant_id, g.member_id, g.client_id, g.resource, coalesce(t.scopes, g.scopes) as scopes,
              g.limits, t.expires_at, g.last_used_at
       from app_private.oauth_tokens t join app_private.oauth_grants g on g.id = t.grant_id
       where t.token_hash = $1 and t.kind = 'access' and t.revoked_at is null and t.expires_at > now()
         and g.revoked_at is null
     ), stamp as (
       update app_private.oauth_grants g set last_used_at = now()
       where g.id = (
         select l.grant_id from live l
         where l.last_used_at is null or l.last_used_at < now() - interval '1 minute'
       )
       and g.id in (select a.id from app_private.oauth_grants a where a.id = g.id for update skip locked)
       returning g.id
     )
     select id, grant_id, member_id, client_id, resource, scopes, limits,
            (extract(epoch from expires_at) * 1000)::float8 as expires_ms from live`,
    [hash],
  );
  if (!row) return null;
  const caller = oauthCaller({
    memberId: row.member_id,
    grantId: row.grant_id,
    clientId: row.client_id,
    tokenId: row.id,
    audience: row.resource,
    scopes: row.scopes,
    limits: limitsFromStore(row.limits),
  });
  // Shared by every request the entry serves, so frozen.
  cache.set(key, Object.freeze({ ...caller, cached: true as const }), Number(row.expires_ms), startedAt);
  return caller;
}

/** Upkeep: tokens expired more than a day ago, and codes past their life, are deleted. */
export async function purgeExpiredOAuthRows(tx: Queryable): Promise<number> {
  const tokens = await tx.query(
    `delete from app_private.oauth_tokens where expires_at < now() - interval '1 day' returning id`,
  );
  const codes = await tx.query(
    `delete from app_private.oauth_codes where expires_at < now() - interval '1 day' returning grant_id`,
  );
  return tokens.length + codes.length;
}
