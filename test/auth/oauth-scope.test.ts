import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listGrants } from "@/lib/auth/oauth/grants";
import { CLIENT_ADDRESS_HEADER, serverWritesClientAddress } from "@/lib/http/client-address";
import { checkAuthorizeRequest } from "@/lib/surfaces/oauth/authorize";
import { SCOPES } from "@/registry/scopes";
import { makeMember } from "../support/factories";
import { approveAndExchange, MCP_RESOURCE, OAUTH_ORIGIN } from "../support/oauth-grants";
import { mcpRequest, oauthPost, oauthRouteFetch } from "../support/oauth-routes";

// Which scopes a token carries: what the authorization request names, and what a refresh asks for.
const REDIRECT = "http://127.0.0.1:43210/callback";
serverWritesClientAddress();

/** A client registered from an address of its own (registration is limited per address). */
async function registerClient(): Promise<string> {
  const address = `2001:db8:4::${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;
  const response = await oauthRouteFetch(`${OAUTH_ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: address },
    body: JSON.stringify({ client_name: "Scopes", redirect_uris: [REDIRECT] }),
  });
  expect(response.status).toBe(201);
  return (await response.json()).client_id;
}

const refresh = (clientId: string, token: string, scope?: string) =>
  oauthPost("/oauth/token", {
    grant_type: "refresh_token",
    client_id: clientId,
    refresh_token: token,
    ...(scope === undefined ? {} : { scope }),
  });

/** A tools/call on MCP: an OAuth token outside its scopes is answered 403 (step-up), inside 200. */
const callTool = (token: string, name: string, args: object) =>
  mcpRequest(MCP_RESOURCE, token, "tools/call", { name, arguments: args });
const canRead = async (token: string) => (await callTool(token, "todos_list", {})).status === 200;
const canWrite = async (token: string) =>
  (await callTool(token, "todos_create", { title: "from a refresh" })).status === 200;

describe("a refresh token grant with scope (RFC 6749 §6)", () => {
  it("issues an access token with the subset asked for; without scope, the grant's scopes again", async () => {
    const member = await makeMember();
    const clientId = await registerClient();
    const first = await approveAndExchange(member.id, clientId, ["todos:read", "todos:write"]);

    const narrowed = await refresh(clientId, first.refresh, "todos:read");
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("todos:read");
    expect(await canRead(narrowed.body.access_token)).toBe(true);
    expect(await canWrite(narrowed.body.access_token)).toBe(false);
    // The member's consent is unchanged: the grant, as Connected apps lists it, keeps both.
    expect((await listGrants(member.id))[0]?.scopes).toEqual(["todos:read", "todos:write"]);

    const full = await refresh(clientId, narrowed.body.refresh_token);
    expect(full.body.scope).toBe("todos:read todos:write");
    expect(await canWrite(full.body.access_token)).toBe(true);

    // offline_access beside a scope is accepted and changes nothing.
    const writeOnly = await refresh(clientId, full.body.refresh_token, "todos:write offline_access");
    expect(writeOnly.body.scope).toBe("todos:write");
    expect(await canRead(writeOnly.body.access_token)).toBe(false);
    expect(await canWrite(writeOnly.body.access_token)).toBe(true);
  });

  it("refuses more than the grant, or no scope of the service, as invalid_scope, and the refresh token stays good", async () => {
    const clientId = await registerClient();
    const { refresh: token } = await approveAndExchange((await makeMember()).id, clientId, ["todos:read"]);
    for (const scope of ["todos:read todos:write", "messages:write", "offline_access", "nonsense"]) {
      const answer = await refresh(clientId, token, scope);
      expect(answer.status, scope).toBe(400);
      expect(answer.body.error, scope).toBe("invalid_scope");
    }
    const answer = await refresh(clientId, token, "");
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe("todos:read");
  });
});

describe("the scope an authorization request names", () => {
  /** The scopes the consent page offers, all checked, or the error the client is sent back with. */
  const offered = async (scope: string | undefined) => {
    const params = new URLSearchParams({
      response_type: "code",
      client_id: await registerClient(),
      redirect_uri: REDIRECT,
      code_challenge: createHash("sha256").update(randomBytes(32)).digest("base64url"),
      code_challenge_method: "S256",
      resource: MCP_RESOURCE,
      state: "s",
    });
    if (scope !== undefined) params.set("scope", scope);
    const check = await checkAuthorizeRequest(params);
    if (check.kind === "ok") return check.request.scopes;
    return check.kind === "redirect_error" ? new URL(check.url).searchParams.get("error") : check.message;
  };

  it("offline_access alone names no scope of the service: invalid_scope, never every scope", async () => {
    expect(await offered("offline_access")).toBe("invalid_scope");
    expect(await offered("offline_access  offline_access")).toBe("invalid_scope");
  });

  it("offers just what was named, offline_access dropped; with no scope (or an empty one), every scope", async () => {
    expect(await offered("offline_access todos:read")).toEqual(["todos:read"]);
    expect(await offered("todos:write todos:read")).toEqual(["todos:read", "todos:write"]);
    expect(await offered(undefined)).toEqual([...SCOPES]);
    expect(await offered("")).toEqual([...SCOPES]);
  });
});
