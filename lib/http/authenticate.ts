import { SCOPES, type Scope } from "../../registry/scopes.ts";
import type { Caller, OAuthCaller, TokenCaller } from "../auth/caller.ts";
import { authenticateAccessToken } from "../auth/oauth/tokens.ts";
import { authenticateToken } from "../auth/tokens.ts";
import { bearerChallenge, insufficientScope, invalidToken } from "./auth-problems.ts";
import { oauthUrls, type ResourceName } from "./oauth-urls.ts";
import { ApiError } from "./problem.ts";

/**
 * Bearer token → the member it stands for: a personal access token (any resource), or an OAuth
 * access token whose audience is this resource. Every failure is the same 401, so nothing leaks.
 * `scopes`: what the request needs, named in the challenge (every scope when not known yet).
 */
export async function authenticate(
  headers: Headers,
  resource: ResourceName = "api",
  scopes: readonly Scope[] = SCOPES,
): Promise<TokenCaller | OAuthCaller> {
  const header = headers.get("authorization");
  if (!header) {
    throw new ApiError("unauthorized", "Send Authorization: Bearer <token>.", {
      headers: bearerChallenge(resource, scopes),
    });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  const caller = token ? await lookUp(token, resource) : null;
  if (!caller) throw invalidToken(resource, scopes);
  return caller;
}

async function lookUp(token: string, resource: ResourceName): Promise<TokenCaller | OAuthCaller | null> {
  if (token.startsWith("pds_")) return authenticateToken(token);
  const caller = await authenticateAccessToken(token);
  // RFC 8707 audience: a token issued for another resource is refused here, as if unknown.
  return caller && caller.audience === oauthUrls().resource(resource) ? caller : null;
}

export function authorize(caller: Caller, scope: Scope, resource?: ResourceName): void {
  authorizeAny(caller, [scope], resource);
}

/** Passes when the token holds at least one of the scopes (a capability whose input picks its scope). */
export function authorizeAny(caller: Caller, scopes: readonly Scope[], resource: ResourceName = "api"): void {
  if (!scopes.some((scope) => caller.scopes.has(scope))) {
    throw insufficientScope(scopes, resource);
  }
}

export { bearerChallenge, insufficientScope, invalidToken };
