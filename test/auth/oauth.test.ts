import { createHash, randomBytes } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteAccount } from "@/lib/auth/account-deletion";
import { forgetClientMetadata } from "@/lib/auth/oauth/client-metadata";
import { approveGrant, listGrants, revokeGrant } from "@/lib/auth/oauth/grants";
import { authenticateAccessToken } from "@/lib/auth/oauth/tokens";
import { CLIENT_ADDRESS_HEADER, serverWritesClientAddress } from "@/lib/http/client-address";
import { REGISTRATIONS_PER_HOUR } from "@/lib/surfaces/oauth/endpoints";
import { asService } from "@/lib/db";
import { checkAuthorizeRequest, redirectWith } from "@/lib/surfaces/oauth/authorize";
import type { Scope } from "@/registry/scopes";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { MemoryOAuthProvider } from "../support/oauth-client";
import { mcpRequest, oauthPost, oauthRouteFetch } from "../support/oauth-routes";
import { selfSignedCertificate } from "../support/self-signed";

// SITE_URL is unset in the tests: every URL derives from http://localhost:3000.
const ORIGIN = "http://localhost:3000";
const MCP = `${ORIGIN}/api/mcp`;
const REDIRECT = "http://127.0.0.1:43210/callback";
// Registration is rate limited per client address, in Redis on the server pass (kept between runs):
// this run's registrations come from an address of its own, as server.ts would record it.
serverWritesClientAddress();
const runAddress = () =>
  `2001:db8::${randomBytes(4)
    .toString("hex")
    .replace(/(.{4})/, "$1:")}`;
const ADDRESS = runAddress();

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** What the consent page does once the member approved (its form posts these to the same functions). */
async function approve(url: URL, memberId: string, scopes: readonly Scope[], collections?: string[]): Promise<URL> {
  const check = await checkAuthorizeRequest(url.searchParams);
  if (check.kind !== "ok") throw new Error(`authorization request refused: ${JSON.stringify(check)}`);
  const { request } = check;
  const { code } = await approveGrant({
    memberId,
    client: request.client,
    redirectUri: request.redirectUri,
    resource: request.resource,
    scopes: request.scopes.filter((scope) => scopes.includes(scope)),
    limits: collections ? { collections } : {},
    codeChallenge: request.codeChallenge,
  });
  return new URL(redirectWith(request.redirectUri, { code, state: request.state }));
}

const register = (body: unknown, address = ADDRESS) =>
  oauthRouteFetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: address },
    body: JSON.stringify(body),
  });

async function registerClient(redirectUris = [REDIRECT]): Promise<string> {
  const response = await register({ client_name: "Negative", redirect_uris: redirectUris }, runAddress());
  expect(response.status).toBe(201);
  return (await response.json()).client_id;
}

function authorizeUrl(params: Record<string, string | undefined>): URL {
  const url = new URL(`${ORIGIN}/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/** A registered client, a member's consent and the code: the start of every token-endpoint case. */
async function codeFor(scopes: readonly Scope[] = ["collections:read"], resource = MCP) {
  const member = await makeMember();
  const clientId = await registerClient();
  const { verifier, challenge } = pkce();
  const url = authorizeUrl({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource,
    scope: scopes.join(" "),
    state: "s1",
  });
  const back = await approve(url, member.id, scopes);
  return { member, clientId, verifier, code: back.searchParams.get("code") ?? "", back };
}

const exchange = (c: { clientId: string; verifier: string; code: string }, extra: Record<string, string> = {}) =>
  oauthPost("/oauth/token", {
    grant_type: "authorization_code",
    client_id: c.clientId,
    code: c.code,
    redirect_uri: REDIRECT,
    code_verifier: c.verifier,
    resource: MCP,
    ...extra,
  });

const mcpList = (token: string) => mcpRequest(MCP, token, "tools/list");

describe("discovery", () => {
  it("serves protected resource metadata at the path-inserted URLs, none at the root, and AS metadata", async () => {
    const response = await oauthRouteFetch(`${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.resource).toBe(MCP);
    expect(body.authorization_servers).toEqual([ORIGIN]);
    // RFC 9728 §3.3: the root's document would describe the origin itself, and no token is issued for it.
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/"]) {
      const root = await oauthRouteFetch(`${ORIGIN}${path}`);
      expect(root.status).toBe(404);
      expect((await root.json()).error).toBe("not_found");
    }
    const origin = await checkAuthorizeRequest(
      authorizeUrl({
        response_type: "code",
        client_id: await registerClient(),
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        resource: ORIGIN,
      }).searchParams,
    );
    expect(origin.kind === "redirect_error" && new URL(origin.url).searchParams.get("error")).toBe("invalid_target");
    const api = await (await oauthRouteFetch(`${ORIGIN}/.well-known/oauth-protected-resource/api/v1`)).json();
    expect(api.resource).toBe(`${ORIGIN}/api/v1`);
    const as = await (await oauthRouteFetch(`${ORIGIN}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.scopes_supported).toContain("offline_access");
    expect(as.scopes_supported).toContain("todos:write");
  });

  it("answers 401 with the Bearer challenge naming the metadata and scopes, on MCP and REST", async () => {
    const mcp = await oauthRouteFetch(MCP, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="pds", resource_metadata="http:\/\/localhost:3000\/\.well-known\/oauth-protected-resource\/api\/mcp", scope="[^"]*todos:read/,
    );
    const saved = process.env.CORS_ORIGINS;
    process.env.CORS_ORIGINS = "http://elsewhere.test";
    const rest = await api("GET", "/collections", { headers: { origin: "http://elsewhere.test" } });
    process.env.CORS_ORIGINS = saved ?? "";
    expect(rest.status).toBe(401);
    // A browser client on an allowed origin may read the challenge.
    expect(rest.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    expect(rest.headers.get("www-authenticate")).toBe(
      `Bearer realm="pds", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api/v1", scope="collections:read"`,
    );
  });
});

describe("the MCP SDK's client connects by OAuth", () => {
  it("registers, is approved for two scopes, lists and calls within them, is refused a third, and stops at revoke", async () => {
    const member = await makeMember();
    const provider = new MemoryOAuthProvider({ redirectUrl: REDIRECT });
    const first = new StreamableHTTPClientTransport(new URL(MCP), { authProvider: provider, fetch: oauthRouteFetch });
    await expect(new Client({ name: "t", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl;
    if (!url) throw new Error("no authorization URL");
    expect(url.searchParams.get("resource")).toBe(MCP);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const back = await approve(url, member.id, ["collections:read", "collections:write"]);
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    expect(back.searchParams.get("state")).toBe("state-123");
    await first.finishAuth(back.searchParams.get("code") ?? "");
    expect(provider.tokens()?.refresh_token).toMatch(/^pdsor_/);

    const client = new Client({ name: "t", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(MCP), { authProvider: provider, fetch: oauthRouteFetch }),
    );
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain("collections_list");
    expect(tools).toContain("collections_create");
    expect(tools).not.toContain("todos_list");
    const created = await client.callTool({
      name: "collections_create",
      arguments: { name: "Road trip", type: "music" },
    });
    expect(created.isError).toBeFalsy();
    const listed = await client.callTool({ name: "collections_list", arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).toContain("Road trip");
    await expect(client.callTool({ name: "todos_list", arguments: {} })).rejects.toThrow(/403/);

    // The same tool call by hand: 403 insufficient_scope naming the scope needed.
    const token = provider.tokens()?.access_token ?? "";
    const refused = await oauthRouteFetch(MCP, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "todos_list", arguments: {} },
      }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(refused.headers.get("www-authenticate")).toContain('scope="todos:read"');

    // The grant is listed with its client and scopes; revoking it ends the token at once.
    const [grant] = await listGrants(member.id);
    expect(grant).toMatchObject({ client_name: "Test Assistant", scopes: ["collections:read", "collections:write"] });
    expect(grant?.last_used_at).not.toBeNull();
    expect((await mcpList(token)).status).toBe(200);
    expect(await revokeGrant(grant?.id ?? "", member.id)).toBe(true);
    expect((await mcpList(token)).status).toBe(401);
    await client.close();
  });

  it("an OAuth token is refused on another resource (audience), and accepted on the one it names", async () => {
    const mcp = await exchange(await codeFor(["collections:read"]));
    expect(mcp.status).toBe(200);
    expect((await api("GET", "/collections", { token: mcp.body.access_token })).status).toBe(401);
    expect((await mcpList(mcp.body.access_token)).status).toBe(200);

    const c = await codeFor(["collections:read"], `${ORIGIN}/api/v1`);
    const rest = await exchange(c, { resource: `${ORIGIN}/api/v1` });
    expect(rest.status).toBe(200);
    expect((await api("GET", "/collections", { token: rest.body.access_token })).status).toBe(200);
    expect((await mcpList(rest.body.access_token)).status).toBe(401);
    // Scopes hold on REST as they do for a personal access token.
    const todos = await api("GET", "/todos", { token: rest.body.access_token });
    expect(todos.status).toBe(403);
    expect(todos.body.code).toBe("insufficient_scope");
  });
});

describe("the token endpoint refuses", () => {
  it("a wrong PKCE verifier", async () => {
    const c = await codeFor();
    const answer = await exchange(c, { code_verifier: pkce().verifier });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_grant");
  });

  it("a missing verifier", async () => {
    const c = await codeFor();
    const answer = await oauthPost("/oauth/token", {
      grant_type: "authorization_code",
      client_id: c.clientId,
      code: c.code,
      redirect_uri: REDIRECT,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_request");
  });

  it("a code used twice, and revokes what the first use issued", async () => {
    const c = await codeFor();
    const first = await exchange(c);
    expect(first.status).toBe(200);
    expect((await mcpList(first.body.access_token)).status).toBe(200);
    const second = await exchange(c);
    expect(second.body.error).toBe("invalid_grant");
    expect((await mcpList(first.body.access_token)).status).toBe(401);
  });

  it("a redirect URI other than the authorization request's", async () => {
    const c = await codeFor();
    const answer = await exchange(c, { redirect_uri: "http://127.0.0.1:43210/other" });
    expect(answer.body.error).toBe("invalid_grant");
  });

  it("a code for another resource, or another client", async () => {
    const c = await codeFor();
    expect((await exchange(c, { resource: `${ORIGIN}/api/v1` })).body.error).toBe("invalid_target");
    expect((await exchange({ ...c, clientId: await registerClient() })).body.error).toBe("invalid_grant");
  });

  it("an expired access token", async () => {
    const answer = await exchange(await codeFor());
    await asService((tx) =>
      tx.query(
        `update app_private.oauth_tokens set expires_at = now() - interval '1 second' where kind = 'access' and token_hash = sha256($1::bytea)`,
        [Buffer.from(answer.body.access_token)],
      ),
    );
    expect((await mcpList(answer.body.access_token)).status).toBe(401);
  });

  it("a refresh token used twice, revoking the whole family", async () => {
    const c = await codeFor();
    const first = await exchange(c);
    const refresh = (token: string) =>
      oauthPost("/oauth/token", {
        grant_type: "refresh_token",
        client_id: c.clientId,
        refresh_token: token,
        resource: MCP,
      });
    const rotated = await refresh(first.body.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await mcpList(rotated.body.access_token)).status).toBe(200);
    const replay = await refresh(first.body.refresh_token);
    expect(replay.body.error).toBe("invalid_grant");
    expect((await mcpList(rotated.body.access_token)).status).toBe(401);
    expect((await refresh(rotated.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("nothing after RFC 7009 revocation of the refresh token", async () => {
    const c = await codeFor();
    const tokens = await exchange(c);
    const revoked = await oauthPost("/oauth/revoke", { client_id: c.clientId, token: tokens.body.refresh_token });
    expect(revoked.status).toBe(200);
    expect((await mcpList(tokens.body.access_token)).status).toBe(401);
    // An unknown token is answered the same.
    expect((await oauthPost("/oauth/revoke", { client_id: c.clientId, token: "nonsense" })).status).toBe(200);
  });
});

describe("the authorization endpoint", () => {
  const base = async () => {
    const clientId = await registerClient();
    return {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      resource: MCP,
      state: "x",
    };
  };
  const errorOf = async (params: Record<string, string | undefined>) => {
    const check = await checkAuthorizeRequest(authorizeUrl(params).searchParams);
    if (check.kind !== "redirect_error") return check.kind;
    const url = new URL(check.url);
    expect(url.searchParams.get("iss")).toBe(ORIGIN);
    expect(url.searchParams.get("state")).toBe("x");
    return url.searchParams.get("error");
  };

  it("refuses a request without PKCE, with plain, or for an unknown resource, at the client's redirect", async () => {
    const params = await base();
    expect(await errorOf({ ...params, code_challenge: undefined })).toBe("invalid_request");
    expect(await errorOf({ ...params, code_challenge_method: "plain" })).toBe("invalid_request");
    expect(await errorOf({ ...params, code_challenge_method: undefined })).toBe("invalid_request");
    expect(await errorOf({ ...params, resource: "https://elsewhere.test/mcp" })).toBe("invalid_target");
    expect(await errorOf({ ...params, scope: "todos:read everything:write" })).toBe("invalid_scope");
    expect(await errorOf(params)).toBe("ok");
  });

  it("shows, never redirects, an unregistered redirect URI; loopback matches on any port", async () => {
    const params = await base();
    expect(await errorOf({ ...params, redirect_uri: "https://attacker.test/cb" })).toBe("show_error");
    expect(await errorOf({ ...params, redirect_uri: "http://127.0.0.1:43210/callback/more" })).toBe("show_error");
    expect(await errorOf({ ...params, redirect_uri: "http://127.0.0.1:5999/callback" })).toBe("ok");
    expect(await errorOf({ ...params, client_id: "pdsc_unknown-client-id" })).toBe("show_error");
  });

  it("refuses to register a redirect URI that is plain http to another host, or has a fragment", async () => {
    for (const uri of ["http://example.test/cb", "https://example.test/cb#x", "javascript:alert(1)"]) {
      const response = await register({ redirect_uris: [uri] });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe("invalid_redirect_uri");
    }
  });

  it("rate limits registration per client address", async () => {
    const address = runAddress();
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) {
      expect((await register({ redirect_uris: [REDIRECT] }, address)).status).toBe(201);
    }
    const refused = await register({ redirect_uris: [REDIRECT] }, address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await register({ redirect_uris: [REDIRECT] }, runAddress())).status).toBe(201);
  });
});

describe("client ID metadata documents", () => {
  let server: https.Server;
  let origin = "";
  const saved = process.env.OAUTH_CLIENT_METADATA_ALLOW_HOSTS;
  const savedCa = https.globalAgent.options.ca;
  const documents = new Map<string, { status?: number; body: string; location?: string }>();

  beforeAll(async () => {
    const tls = selfSignedCertificate();
    // Trust the throwaway certificate in this process, as the browser tests' server is told to.
    https.globalAgent.options.ca = tls.cert;
    server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const doc = documents.get(req.url ?? "");
      if (!doc) return void res.writeHead(404).end();
      res.writeHead(doc.status ?? 200, {
        "content-type": "application/json",
        ...(doc.location ? { location: doc.location } : {}),
      });
      res.end(doc.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.OAUTH_CLIENT_METADATA_ALLOW_HOSTS = "127.0.0.1";
  });

  afterAll(async () => {
    process.env.OAUTH_CLIENT_METADATA_ALLOW_HOSTS = saved;
    https.globalAgent.options.ca = savedCa;
    forgetClientMetadata();
    await new Promise((resolve) => server.close(resolve));
  });

  const documentFor = (path: string, extra: object = {}) =>
    JSON.stringify({ client_id: `${origin}${path}`, client_name: "Doc Client", redirect_uris: [REDIRECT], ...extra });

  const check = (clientId: string) =>
    checkAuthorizeRequest(
      authorizeUrl({
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        resource: MCP,
      }).searchParams,
    );

  it("the SDK identifies itself by a document this test serves, and gets tokens", async () => {
    documents.set("/client.json", { body: documentFor("/client.json") });
    const member = await makeMember();
    const provider = new MemoryOAuthProvider({ redirectUrl: REDIRECT, clientMetadataUrl: `${origin}/client.json` });
    const transport = new StreamableHTTPClientTransport(new URL(MCP), {
      authProvider: provider,
      fetch: oauthRouteFetch,
    });
    await expect(new Client({ name: "t", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl;
    if (!url) throw new Error("no authorization URL");
    expect(url.searchParams.get("client_id")).toBe(`${origin}/client.json`);
    const back = await approve(url, member.id, ["collections:read"]);
    await transport.finishAuth(back.searchParams.get("code") ?? "");
    expect((await mcpList(provider.tokens()?.access_token ?? "")).status).toBe(200);
    const [grant] = await listGrants(member.id);
    expect(grant?.client_name).toBe("Doc Client");
  });

  it("refuses a document on a private address, one that redirects, an oversized one, one naming another id, one holding NUL", async () => {
    const refusal = async (clientId: string) => {
      const answer = await check(clientId);
      return answer.kind === "show_error" ? answer.message : answer.kind;
    };
    expect(await refusal("https://10.0.0.7/client.json")).toMatch(/private or reserved/);
    delete process.env.OAUTH_CLIENT_METADATA_ALLOW_HOSTS;
    expect(await refusal(`${origin}/never-fetched.json`)).toMatch(/private or reserved/);
    process.env.OAUTH_CLIENT_METADATA_ALLOW_HOSTS = "127.0.0.1";
    documents.set("/moved.json", { status: 302, body: "", location: `${origin}/client.json` });
    expect(await refusal(`${origin}/moved.json`)).toMatch(/redirect/);
    documents.set("/big.json", { body: documentFor("/big.json", { padding: "x".repeat(6000) }) });
    expect(await refusal(`${origin}/big.json`)).toMatch(/larger than 5120 bytes/);
    documents.set("/other.json", { body: documentFor("/client.json") });
    expect(await refusal(`${origin}/other.json`)).toMatch(/not its own URL/);
    // Its name is stored with each grant: text the store cannot hold is refused, not a failed insert.
    documents.set("/nul.json", { body: documentFor("/nul.json", { client_name: "Doc\u0000Client" }) });
    expect(await refusal(`${origin}/nul.json`)).toMatch(/cannot be stored/);
  });

  it("is never exempted from the guard in production", async () => {
    const { clientMetadataAllowHost } = await import("@/lib/auth/oauth/client-metadata");
    expect(clientMetadataAllowHost({ OAUTH_CLIENT_METADATA_ALLOW_HOSTS: "127.0.0.1" })("127.0.0.1")).toBe(true);
    expect(
      clientMetadataAllowHost({ OAUTH_CLIENT_METADATA_ALLOW_HOSTS: "127.0.0.1", REQUIRE_SERVER_DATABASE: "1" })(
        "127.0.0.1",
      ),
    ).toBe(false);
  });
});

describe("a grant's limits", () => {
  it("reach the caller as CredentialLimits, for the pipeline and the store to enforce", async () => {
    const member = await makeMember();
    const clientId = await registerClient();
    const { verifier, challenge } = pkce();
    const url = authorizeUrl({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: MCP,
    });
    const collection = "0b7e5a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c";
    const back = await approve(url, member.id, ["collections:read"], [collection]);
    const tokens = await exchange({ clientId, verifier, code: back.searchParams.get("code") ?? "" });
    const caller = await authenticateAccessToken(tokens.body.access_token);
    expect(caller).toMatchObject({
      kind: "oauth",
      memberId: member.id,
      clientId,
      audience: MCP,
      limits: { collections: [collection] },
    });
    expect(caller?.grantId).toBe((await listGrants(member.id))[0]?.id);
  });
});

describe("grants end with the member", () => {
  it("account deletion removes the grants and their tokens", async () => {
    const c = await codeFor();
    const tokens = await exchange(c);
    expect((await listGrants(c.member.id)).length).toBe(1);
    await deleteAccount(c.member.id);
    expect((await listGrants(c.member.id)).length).toBe(0);
    expect((await mcpList(tokens.body.access_token)).status).toBe(401);
    const [left] = await asService((tx) =>
      tx.query<{ n: number }>("select count(*)::int as n from app_private.oauth_grants where member_id = $1", [
        c.member.id,
      ]),
    );
    expect(left?.n).toBe(0);
  });
});
