import { SCOPES, type Scope } from "../../registry/scopes.ts";
import type { Caller, OAuthCaller, TokenCaller } from "../auth/caller.ts";
import { authenticateAccessToken } from "../auth/oauth/tokens.ts";
import { authenticateToken } from "../auth/tokens.ts";
import { oauthUrls, type ResourceName } from "./oauth-urls.ts";
import { ApiError } from "./problem.ts";

/**
 * The Bearer challenge (RFC 6750 §3) with where to find the authorization server (RFC 9728 §5.1)
 * and the scopes the request needs (the MCP authorization spec's scope selection): what an OAuth
 * client reads on a 401 or 403 to start, or step up, authorization.
 */
export function bearerChallenge(resource: ResourceName, scopes: readonly Scope[], error?: "invalid_token" | "insufficient_scope") {
  const parts = [
    'Bearer realm="pds"',
    `resource_metadata="${oauthUrls().resourceMetadata(resource)}"`,
    `scope="${scopes.join(" ")}"`,
  ];
  if (error) parts.push(`error="${error}"`);
  return { "WWW-Authenticate": parts.join(", ") };
}

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
    throw new ApiError("unauthorized", "Send Authorization: Bearer <token>.", { headers: bearerChallenge(resource, scopes) });
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

export const invalidToken = (resource: ResourceName = "api", scopes: readonly Scope[] = SCOPES) =>
  new ApiError("unauthorized", "The token is malformed, unknown, expired, revoked, or for another resource.", {
    headers: bearerChallenge(resource, scopes, "invalid_token"),
  });

export function authorize(caller: Caller, scope: Scope, resource?: ResourceName): void {
  authorizeAny(caller, [scope], resource);
}

/** Passes when the token holds at least one of the scopes (a capability whose input picks its scope). */
export function authorizeAny(caller: Caller, scopes: readonly Scope[], resource: ResourceName = "api"): void {
  if (!scopes.some((scope) => caller.scopes.has(scope))) {
    throw insufficientScope(scopes, resource);
  }
}

/** 403 naming the scopes the operation needs (RFC 6750 §3.1), where the client can ask for them. */
export function insufficientScope(scopes: readonly Scope[], resource: ResourceName = "api"): ApiError {
  const needs = scopes.length === 1 ? `the scope ${scopes[0]}` : `one of the scopes ${scopes.join(", ")}`;
  return new ApiError("insufficient_scope", `This token lacks ${needs}.`, {
    headers: bearerChallenge(resource, scopes, "insufficient_scope"),
  });
}
