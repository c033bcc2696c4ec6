import { SCOPES, type Scope } from "../../registry/scopes.ts";
import { oauthUrls, type ResourceName } from "./oauth-urls.ts";
import { ApiError } from "./problem.ts";

// The problems of authentication and authorization and their Bearer challenges, apart from
// authenticate.ts (which reaches the database) so the reference can show them as they are answered.

/**
 * The Bearer challenge (RFC 6750 §3) with where to find the authorization server (RFC 9728 §5.1)
 * and the scopes the request needs (the MCP authorization spec's scope selection): what an OAuth
 * client reads on a 401 or 403 to start, or step up, authorization.
 */
export function bearerChallenge(
  resource: ResourceName,
  scopes: readonly Scope[],
  error?: "invalid_token" | "insufficient_scope",
) {
  const parts = [
    'Bearer realm="pds"',
    `resource_metadata="${oauthUrls().resourceMetadata(resource)}"`,
    `scope="${scopes.join(" ")}"`,
  ];
  if (error) parts.push(`error="${error}"`);
  return { "WWW-Authenticate": parts.join(", ") };
}

export const invalidToken = (resource: ResourceName = "api", scopes: readonly Scope[] = SCOPES) =>
  new ApiError("unauthorized", "The token is malformed, unknown, expired, revoked, or for another resource.", {
    headers: bearerChallenge(resource, scopes, "invalid_token"),
  });

/** 403 naming the scopes the operation needs (RFC 6750 §3.1), where the client can ask for them. */
export function insufficientScope(scopes: readonly Scope[], resource: ResourceName = "api"): ApiError {
  const needs = scopes.length === 1 ? `the scope ${scopes[0]}` : `one of the scopes ${scopes.join(", ")}`;
  return new ApiError("insufficient_scope", `This token lacks ${needs}.`, {
    headers: bearerChallenge(resource, scopes, "insufficient_scope"),
  });
}
