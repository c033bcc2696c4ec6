import { asService } from "../../db/index.ts";
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
 * Revokes a grant and every token it issued, at once: a trigger revokes the tokens, whose own
 * trigger announces each to every instance (lib/auth/token-cache.ts); this one forgets them now.
 * With memberId, only that member's grant, revoked by the member (Connected apps); without, by the
 * client (RFC 7009 revocation of its refresh token). The reason goes into connected_app.revoked.
 * Answers whether a live grant was revoked.
 */
export async function revokeGrant(grantId: string, memberId?: string): Promise<boolean> {
  const rows = await asService((tx) =>
    tx.query<{ hash: string | null }>(
      `with revoked as (
         update app_private.oauth_grants
            set revoked_at = now(), revoked_reason = case when $2::uuid is null then 'client' else 'member' end
         where id = $1 and revoked_at is null and ($2::uuid is null or member_id = $2::uuid)
         returning id
       )
       select encode(t.token_hash, 'hex') as hash from revoked r
       left join app_private.oauth_tokens t on t.grant_id = r.id and t.kind = 'access'`,
      [grantId, memberId ?? null],
    ),
  );
  for (const row of rows) if (row.hash) tokenCache().forget(row.hash);
  return rows.length > 0;
}
