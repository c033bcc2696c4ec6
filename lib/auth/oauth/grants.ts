import { asService, type Queryable } from "../../db/index.ts";
import type { CredentialLimits } from "../credential-limits.ts";
import { limitsToStore } from "../limits-json.ts";
import { tokenCache } from "../token-cache.ts";
import type { OAuthClient } from "./client-rules.ts";
import { newCode, secretHash } from "./secrets.ts";

/** An authorization code lives this long (OAuth 2.1 §4.1.2: short; RFC 6749 advises at most 10 minutes). */
export const CODE_SECONDS = 120;

export interface GrantRecord {
  id: string;
  client_id: string;
  client_name: string;
  client_logo: string | null;
  redirect_uri: string;
  resource: string;
  scopes: string[];
  limits: CredentialLimits;
  created_at: string;
  last_used_at: string | null;
}

const GRANT_COLUMNS = `id, client_id, client_name, client_logo, redirect_uri, resource, scopes, limits,
  to_jsonb(created_at) #>> '{}' as created_at, to_jsonb(last_used_at) #>> '{}' as last_used_at`;

/**
 * The member approved: the grant and its one authorization code, bound to the client, the redirect
 * URI, the PKCE challenge and the resource. Answers the code (only its hash is stored).
 */
export async function approveGrant(input: {
  memberId: string;
  client: OAuthClient;
  redirectUri: string;
  resource: string;
  scopes: readonly string[];
  limits: CredentialLimits;
  codeChallenge: string;
}): Promise<{ code: string; grantId: string }> {
  const code = newCode();
  const grantId = await asService(async (tx) => {
    const [grant] = await tx.query<{ id: string }>(
      `insert into app_private.oauth_grants (member_id, client_id, client_name, client_logo, redirect_uri, resource, scopes, limits)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [
        input.memberId,
        input.client.id,
        input.client.name,
        input.client.logoUri ?? null,
        input.redirectUri,
        input.resource,
        [...new Set(input.scopes)],
        JSON.stringify(limitsToStore(input.limits) ?? {}),
      ],
    );
    if (!grant) throw new Error("grant insert returned nothing");
    await tx.query(
      `insert into app_private.oauth_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, resource, expires_at)
       values ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      [
        secretHash(code),
        grant.id,
        input.client.id,
        input.redirectUri,
        input.codeChallenge,
        input.resource,
        CODE_SECONDS,
      ],
    );
    return grant.id;
  });
  return { code, grantId };
}

/** The member's live grants (Connected apps), newest first. */
export async function listGrants(memberId: string): Promise<GrantRecord[]> {
  return asService((tx) =>
    tx.query<GrantRecord>(
      `select ${GRANT_COLUMNS} from app_private.oauth_grants
       where member_id = $1 and revoked_at is null order by created_at desc, id desc`,
      [memberId],
    ),
  );
}

/**
 * What the Activity page calls the member's apps: every live grant, and the ended ones among `seen`
 * (grant ids whose writes it lists), by the client's name, newest first.
 */
export async function grantLabels(
  memberId: string,
  seen: readonly string[],
): Promise<{ id: string; client_name: string; ended: boolean }[]> {
  return asService((tx) =>
    tx.query(
      `select id, client_name, revoked_at is not null as ended from app_private.oauth_grants
        where member_id = $1 and (revoked_at is null or id::text = any ($2::text[]))
        order by created_at desc, id desc`,
      [memberId, seen],
    ),
  );
}

/** Why a grant ended (oauth_grants.revoked_reason, and connected_app.revoked). */
export type GrantRevokedReason = "member" | "client" | "code_reuse" | "refresh_token_reuse";

/**
 * Revokes a live grant in the transaction given: a trigger revokes its tokens, whose own trigger
 * announces each to every instance (lib/auth/token-cache.ts). With memberId, only that member's
 * grant. Answers the hashes of its access tokens, for this instance to forget once committed, or
 * null when no live grant was revoked.
 */
export async function revokeGrantIn(
  tx: Queryable,
  grantId: string,
  reason: GrantRevokedReason,
  memberId?: string,
): Promise<string[] | null> {
  const rows = await tx.query<{ hash: string | null }>(
    `with revoked as (
       update app_private.oauth_grants set revoked_at = now(), revoked_reason = $2
       where id = $1 and revoked_at is null and ($3::uuid is null or member_id = $3::uuid)
       returning id
     )
     select encode(t.token_hash, 'hex') as hash from revoked r
     left join app_private.oauth_tokens t on t.grant_id = r.id and t.kind = 'access'`,
    [grantId, reason, memberId ?? null],
  );
  return rows.length ? rows.flatMap((row) => (row.hash ? [row.hash] : [])) : null;
}

/**
 * Revokes a grant and every token it issued, at once. With memberId, by the member (Connected
 * apps), only that member's grant; without, by the client (RFC 7009 revocation of its refresh
 * token). Answers whether a live grant was revoked.
 */
export async function revokeGrant(grantId: string, memberId?: string): Promise<boolean> {
  const hashes = await asService((tx) => revokeGrantIn(tx, grantId, memberId ? "member" : "client", memberId));
  for (const hash of hashes ?? []) tokenCache().forget(hash);
  return hashes !== null;
}
