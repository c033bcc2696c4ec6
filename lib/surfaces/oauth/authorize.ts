import { isScope, SCOPES, type Scope } from "../../../registry/scopes.ts";
import type { OAuthClient } from "../../auth/oauth/client-rules.ts";
import { findClient, redirectMatches } from "../../auth/oauth/clients.ts";
import { OAuthError } from "../../auth/oauth/errors.ts";
import { isStorableText } from "../../db/storable-text.ts";
import { oauthUrls, type ResourceName } from "../../http/oauth-urls.ts";
import { OFFLINE_ACCESS } from "./metadata.ts";

/** A checked authorization request (OAuth 2.1 §4.1.1), ready for the member's consent. */
export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state?: string;
  /** What the client asked for, in registry order; every scope when it sent no scope (or an empty one). */
  scopes: Scope[];
  resource: string;
  resourceName: ResourceName;
  codeChallenge: string;
}

export type AuthorizeCheck =
  /** No redirect URI can be trusted (unknown client, unregistered redirect): tell the member, redirect nowhere. */
  | { kind: "show_error"; message: string }
  /** Sent back to the client at its redirect URI (RFC 6749 §4.1.2.1), with iss (RFC 9207). */
  | { kind: "redirect_error"; url: string }
  | { kind: "ok"; request: AuthorizeRequest };

/** The parameters the consent form carries back, unchanged, to the decision. */
export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;

/** The redirect URI with the answer's parameters, state and iss (RFC 9207) added. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, iss: oauthUrls().issuer })) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}

/**
 * Checks an authorization request in the order RFC 6749 §4.1.2.1 prescribes: the client and its
 * redirect URI first (a failure there is shown, never redirected), then everything else, whose
 * failures go back to the client. PKCE S256 is required; plain is refused (OAuth 2.1 §4.1.1).
 */
export async function checkAuthorizeRequest(params: URLSearchParams): Promise<AuthorizeCheck> {
  const one = (name: string) => params.get(name) ?? undefined;
  const clientId = one("client_id");
  if (!clientId) return { kind: "show_error", message: "The request names no client (client_id is missing)." };
  let client: OAuthClient | null = null;
  try {
    // No client has an id the store cannot hold: unknown, without asking the store.
    if (isStorableText(clientId)) client = await findClient(clientId);
  } catch (error) {
    if (error instanceof OAuthError)
      return { kind: "show_error", message: `The client could not be identified: ${error.message}` };
    throw error;
  }
  if (!client) return { kind: "show_error", message: "The client is unknown (never registered, or expired)." };
  const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
  const redirectUri = one("redirect_uri") ?? (only && !only.startsWith("http://") ? only : undefined);
  if (!redirectUri || !isStorableText(redirectUri) || !redirectMatches(client.redirectUris, redirectUri)) {
    return { kind: "show_error", message: "The redirect URI is not one the client registered." };
  }
  const state = one("state");
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: "redirect_error",
    url: redirectWith(redirectUri, { error, error_description: description, state }),
  });
  const repeated = AUTHORIZE_PARAMS.find((name) => params.getAll(name).length > 1);
  if (repeated) return fail("invalid_request", `${repeated} is given more than once.`);
  const unstorable = AUTHORIZE_PARAMS.find((name) => !isStorableText(params.get(name) ?? ""));
  if (unstorable)
    return fail("invalid_request", `${unstorable} holds text that cannot be stored (U+0000 or a lone surrogate).`);
  // RFC 6749 §4.1.2.1: a missing parameter is invalid_request; unsupported_response_type is for one given.
  const responseType = one("response_type");
  if (!responseType) return fail("invalid_request", 'response_type is required ("code").');
  if (responseType !== "code") return fail("unsupported_response_type", 'Only response_type "code" is offered.');
  const codeChallenge = one("code_challenge");
  if (!codeChallenge) return fail("invalid_request", "code_challenge is required (PKCE with S256).");
  if (one("code_challenge_method") !== "S256") {
    return fail("invalid_request", "code_challenge_method must be S256 (plain is not accepted).");
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge))
    return fail("invalid_request", "code_challenge is not a base64url SHA-256.");
  const resource = one("resource");
  if (!resource) return fail("invalid_target", "resource is required (RFC 8707): the URL of the MCP server or API.");
  const resourceName = oauthUrls().resourceNamed(resource);
  if (!resourceName)
    return fail(
      "invalid_target",
      `resource must be one of ${[oauthUrls().resource("mcp"), oauthUrls().resource("api"), oauthUrls().resource("agent")].join(", ")}.`,
    );
  const named = (one("scope") ?? "").split(" ").filter(Boolean);
  const asked = named.filter((scope) => scope !== OFFLINE_ACCESS);
  const unknown = asked.filter((scope) => !isScope(scope));
  if (unknown.length) return fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}.`);
  // Only an absent (or empty) scope means the default, every scope (RFC 6749 §3.3). offline_access
  // alone asks for none of ours; read as absent, it had every scope granted to a client that named none.
  if (named.length && !asked.length) {
    return fail("invalid_scope", "scope names no scope of this service; name those wanted, or send no scope for all.");
  }
  const scopes = asked.length ? SCOPES.filter((scope) => asked.includes(scope)) : [...SCOPES];
  return { kind: "ok", request: { client, redirectUri, state, scopes, resource, resourceName, codeChallenge } };
}
