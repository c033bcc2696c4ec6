import { isScope, SCOPES, type Scope } from "../../registry/scopes.ts";
import type { Actor } from "../db/types.ts";

/** Who a call acts for: always a member, under that member's row-level security. */
interface ActingMember {
  memberId: string;
  scopes: ReadonlySet<Scope>;
}

/**
 * A personal access token: its own scopes and its own rate-limit bucket. `cached`: found in this
 * instance's token cache, so the member transaction re-checks that it is still live.
 */
export type TokenCaller = ActingMember & { kind: "token"; tokenId: string; cached: boolean };
/** A signed-in browser on the settings pages: every scope, a bucket per session. */
export type SessionCaller = ActingMember & { kind: "session"; sessionId: string };
/** The service acting for a member on its own initiative (operators, upkeep): every scope, no bucket. */
export type ServiceCaller = ActingMember & { kind: "service"; purpose: string };

export type Caller = TokenCaller | SessionCaller | ServiceCaller;

const EVERY_SCOPE: ReadonlySet<Scope> = new Set(SCOPES);

/** Scopes as stored with a token; a name the registry no longer knows grants nothing. */
export const scopeSet = (names: readonly string[]): ReadonlySet<Scope> => new Set(names.filter(isScope));

export const tokenCaller = (memberId: string, tokenId: string, scopes: readonly string[], cached = false): TokenCaller => ({
  kind: "token",
  memberId,
  tokenId,
  scopes: scopeSet(scopes),
  cached,
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

/** The actor a caller writes as, through a surface (the claims of its member transaction). */
export function actorOf(caller: Caller, surface: Actor["surface"]): Actor {
  switch (caller.kind) {
    case "token":
      return { kind: "token", id: caller.tokenId, surface };
    case "session":
      return { kind: "session", id: caller.sessionId, surface };
    case "service":
      return { kind: "service", surface };
  }
  // An OAuth grant (a caller of kind "oauth" carrying grantId): its writes are the app's.
  const grant = caller as { grantId?: string };
  return { kind: "oauth", id: grant.grantId, surface };
}
