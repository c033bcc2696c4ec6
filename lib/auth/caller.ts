import { isScope, SCOPES, type Scope } from "../../registry/scopes.ts";
import type { CredentialLimits } from "./credential-limits.ts";
import type { Actor } from "../db/types.ts";

/** Who a call acts for: always a member, under that member's row-level security. */
interface ActingMember {
  memberId: string;
  scopes: ReadonlySet<Scope>;
  /**
   * What the credential may do beyond its scopes; absent: no limits. Enforced for whatever kind of
   * caller carries it (lib/pipeline/credential-limits.ts, and RLS for the collections).
   */
  limits?: CredentialLimits;
}

/**
 * A personal access token: its own scopes and its own rate-limit bucket. `cached`: found in this
 * instance's token cache, so the member transaction re-checks that it is still live.
 */
export type TokenCaller = ActingMember & { kind: "token"; tokenId: string; cached: boolean };
/**
 * An OAuth access token: the grant's scopes and limits, for the client the member approved. `grantId`
 * names the grant (activity and rate limits key on it); `tokenId` is the access token's row, which the
 * member transaction re-checks when the look-up came from the cache.
 */
export type OAuthCaller = ActingMember & {
  kind: "oauth";
  grantId: string;
  clientId: string;
  tokenId: string;
  /** The resource (RFC 8707) the token was issued for; the resource server checks it. */
  audience: string;
  cached: boolean;
};
/** A signed-in browser on the settings pages: every scope, a bucket per session. */
export type SessionCaller = ActingMember & { kind: "session"; sessionId: string };
/** The service acting for a member on its own initiative (operators, upkeep): every scope, no bucket. */
export type ServiceCaller = ActingMember & { kind: "service"; purpose: string };

export type Caller = TokenCaller | OAuthCaller | SessionCaller | ServiceCaller;

const EVERY_SCOPE: ReadonlySet<Scope> = new Set(SCOPES);

/** Scopes as stored with a token; a name the registry no longer knows grants nothing. */
export const scopeSet = (names: readonly string[]): ReadonlySet<Scope> => new Set(names.filter(isScope));

export const tokenCaller = (
  memberId: string,
  tokenId: string,
  scopes: readonly string[],
  cached = false,
  limits?: CredentialLimits | null,
): TokenCaller => ({
  kind: "token",
  memberId,
  tokenId,
  scopes: scopeSet(scopes),
  cached,
  ...(limits ? { limits } : {}),
});

export const sessionCaller = (memberId: string, sessionId: string): SessionCaller => ({
  kind: "session",
  memberId,
  sessionId,
  scopes: EVERY_SCOPE,
});

export const serviceCaller = (memberId: string, purpose: string): ServiceCaller => ({
  kind: "service",
  memberId,
  purpose,
  scopes: EVERY_SCOPE,
});

export const oauthCaller = (
  row: {
    memberId: string;
    grantId: string;
    clientId: string;
    tokenId: string;
    audience: string;
    scopes: readonly string[];
    limits?: CredentialLimits | null;
  },
  cached = false,
): OAuthCaller => ({
  kind: "oauth",
  memberId: row.memberId,
  grantId: row.grantId,
  clientId: row.clientId,
  tokenId: row.tokenId,
  audience: row.audience,
  scopes: scopeSet(row.scopes),
  cached,
  ...(row.limits ? { limits: row.limits } : {}),
});
/**
 * What a member transaction re-checks for this caller: a token read from this instance's cache may
 * have been revoked since (the transaction asserts it live); one just looked up is live.
 */
export function liveCheck(caller: Caller): { tokenId?: string; oauthTokenId?: string } {
  if (caller.kind === "token" && caller.cached) return { tokenId: caller.tokenId };
  if (caller.kind === "oauth" && caller.cached) return { oauthTokenId: caller.tokenId };
  return {};
}

/** The actor a caller writes as, through a surface (the claims of its member transaction). */
export function actorOf(caller: Caller, surface: Actor["surface"]): Actor {
  switch (caller.kind) {
    case "token":
      return { kind: "token", id: caller.tokenId, surface };
    case "session":
      return { kind: "session", id: caller.sessionId, surface };
    case "service":
      return { kind: "service", surface };
    case "oauth":
      // An OAuth grant's writes are the app's: one actor per grant, across its rotated tokens.
      return { kind: "oauth", id: caller.grantId, surface };
  }
}
