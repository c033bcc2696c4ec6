import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { approveGrant } from "@/lib/auth/oauth/grants";
import { CLIENT_ADDRESS_HEADER, serverWritesClientAddress } from "@/lib/http/client-address";
import { checkAuthorizeRequest } from "@/lib/surfaces/oauth/authorize";
import type { Scope } from "@/registry/scopes";
import { oauthPost, oauthRouteFetch } from "./oauth-routes";

// Registration is rate limited per client address (in Redis on the server pass): this process's own address.
serverWritesClientAddress();
const ADDRESS = `2001:db8:2::${randomBytes(2).toString("hex")}`;

export const OAUTH_ORIGIN = "http://localhost:3000";
export const MCP_RESOURCE = `${OAUTH_ORIGIN}/api/mcp`;
const REDIRECT = "http://127.0.0.1:43210/callback";

/** A dynamically registered client (RFC 7591) named `name`; answers its client_id. */
export async function registerClient(name = "Event Assistant"): Promise<string> {
  const response = await oauthRouteFetch(`${OAUTH_ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: ADDRESS },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }),
  });
  expect(response.status).toBe(201);
  return (await response.json()).client_id;
}

/**
 * The member approves the client for these scopes (and collections): the checks and the function the
 * consent decision uses, then the client exchanges the code. Answers the grant's id and its tokens.
 */
export async function approveAndExchange(
  memberId: string,
  clientId: string,
  scopes: readonly Scope[],
  collections?: string[],
) {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(`${OAUTH_ORIGIN}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource: MCP_RESOURCE,
    scope: scopes.join(" "),
    state: "s",
  }))
    url.searchParams.set(name, value);
  const check = await checkAuthorizeRequest(url.searchParams);
  if (check.kind !== "ok") throw new Error(`authorization request refused: ${JSON.stringify(check)}`);
  const { request } = check;
  const { code, grantId } = await approveGrant({
    memberId,
    client: request.client,
    redirectUri: request.redirectUri,
    resource: request.resource,
    scopes: request.scopes,
    limits: collections ? { collections } : {},
    codeChallenge: request.codeChallenge,
  });
  const tokens = await oauthPost("/oauth/token", {
    grant_type: "authorization_code",
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: MCP_RESOURCE,
  });
  expect(tokens.status).toBe(200);
  return { grantId, access: tokens.body.access_token as string, refresh: tokens.body.refresh_token as string };
}

/** The refresh_token grant: rotates the pair (or, for a spent token, ends the grant). */
export const refreshTokens = (clientId: string, token: string) =>
  oauthPost("/oauth/token", {
    grant_type: "refresh_token",
    client_id: clientId,
    refresh_token: token,
    resource: MCP_RESOURCE,
  });
