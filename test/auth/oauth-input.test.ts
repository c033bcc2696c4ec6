import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newAccessToken } from "@/lib/auth/oauth/secrets";
import { CLIENT_ADDRESS_HEADER, serverWritesClientAddress } from "@/lib/http/client-address";
import { checkAuthorizeRequest } from "@/lib/surfaces/oauth/authorize";
import { REGISTRATION_MAX_BYTES } from "@/lib/surfaces/oauth/endpoints";
import { makeMember } from "../support/factories";
import { approveAndExchange } from "../support/oauth-grants";
import { oauthPost, oauthRouteFetch } from "../support/oauth-routes";

// What an outside tester sent: text Postgres cannot hold, broken Basic credentials, a body whose
// bytes outnumber its characters. Each is the client's mistake, answered 4xx, never 500.
const ORIGIN = "http://localhost:3000";
const MCP = `${ORIGIN}/api/mcp`;
const REDIRECT = "http://127.0.0.1:43210/callback";
serverWritesClientAddress();
// Registration is limited per address (in Redis on the server pass, kept between runs): one each.
const freshAddress = () => `2001:db8:3::${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;

const registerRaw = (body: string) =>
  oauthRouteFetch(`${ORIGIN}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: freshAddress() },
    body,
  });
const register = async (metadata: unknown) => {
  const response = await registerRaw(JSON.stringify(metadata));
  return { status: response.status, body: await response.json() };
};

/** A client registered from an address of its own (the helper's one address would reach the limit). */
async function registerClient(): Promise<string> {
  const answer = await register({ client_name: "Input", redirect_uris: [REDIRECT] });
  expect(answer.status).toBe(201);
  return answer.body.client_id;
}

const postWith = async (path: string, authorization: string, form: Record<string, string>) => {
  const response = await oauthRouteFetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization },
    body: new URLSearchParams(form),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
};
const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

const authorizeParams = (clientId: string, extra: Record<string, string | undefined> = {}) => {
  const params = new URLSearchParams();
  const all: Record<string, string | undefined> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
    code_challenge_method: "S256",
    resource: MCP,
    state: "st",
    ...extra,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) params.set(name, value);
  return params;
};
/** The error the client is sent back with, or what the page shows instead. */
const authorizeOutcome = async (params: URLSearchParams) => {
  const check = await checkAuthorizeRequest(params);
  if (check.kind === "show_error") return { shown: check.message };
  if (check.kind === "ok") return { ok: true };
  return { error: new URL(check.url).searchParams.get("error") };
};

// A form body cannot carry a lone surrogate (percent-decoding makes it U+FFFD); JSON can.
describe("text Postgres cannot store (NUL, a lone surrogate)", () => {
  it("is refused at registration with the RFC 7591 code of the field", async () => {
    const nameNul = await register({ client_name: "x\u0000", redirect_uris: ["https://a.example/cb"] });
    expect(nameNul.status).toBe(400);
    expect(nameNul.body.error).toBe("invalid_client_metadata");
    const nameSurrogate = await register({ client_name: "x\ud800", redirect_uris: ["https://a.example/cb"] });
    expect(nameSurrogate).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
    for (const uri of ["myapp:/c\u0000b", "https://a.example/c\u0000b"]) {
      const answer = await register({ client_name: "x", redirect_uris: [uri] });
      expect(answer).toMatchObject({ status: 400, body: { error: "invalid_redirect_uri" } });
    }
    const logo = await register({ redirect_uris: ["https://a.example/cb"], logo_uri: "https://a.example/l\u0000.png" });
    expect(logo).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
    // Raw escapes in the JSON text, as curl sent them.
    const raw = await registerRaw('{"client_name":"x\\u0000","redirect_uris":["https://a.example/cb"]}');
    expect(raw.status).toBe(400);
  });

  it("in client_id shows the unknown-client page, and elsewhere in the request goes back as invalid_request", async () => {
    expect(await authorizeOutcome(authorizeParams("pdsc_\u0000"))).toEqual({
      shown: "The client is unknown (never registered, or expired).",
    });
    const clientId = await registerClient();
    expect(await authorizeOutcome(authorizeParams(clientId))).toEqual({ ok: true });
    expect(await authorizeOutcome(authorizeParams(clientId, { redirect_uri: `${REDIRECT}\u0000` }))).toHaveProperty(
      "shown",
    );
    for (const name of ["state", "scope", "resource", "code_challenge"]) {
      const outcome = await authorizeOutcome(authorizeParams(clientId, { [name]: "todos:read\u0000" }));
      expect(outcome, name).toEqual({ error: "invalid_request" });
    }
  });

  it("at the token and revocation endpoints: client_id names no client, any other parameter is invalid_request", async () => {
    const token = newAccessToken();
    const revoke = await oauthPost("/oauth/revoke", { token, client_id: "pdsc_\u0000" });
    expect(revoke).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const refresh = await oauthPost("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: "x",
      client_id: "pdsc_\u0000",
    });
    expect(refresh).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const { access } = await approveAndExchange((await makeMember()).id, await registerClient(), ["todos:read"]);
    const clientId = await registerClient();
    for (const [path, form] of [
      ["/oauth/revoke", { token: `${access}\u0000`, client_id: clientId }],
      ["/oauth/token", { grant_type: "authorization_code", code: "c\u0000", client_id: clientId }],
      ["/oauth/token", { grant_type: "refresh_token\u0000", refresh_token: "x", client_id: clientId }],
      ["/oauth/token", { "grant\u0000": "x", grant_type: "refresh_token", refresh_token: "x", client_id: clientId }],
    ] as const) {
      expect(await oauthPost(path, form), JSON.stringify(form)).toMatchObject({
        status: 400,
        body: { error: "invalid_request" },
      });
    }
  });
});

describe("malformed Basic credentials on the token and revocation endpoints", () => {
  const malformed = {
    "not percent-encoded": basic("%zz:"),
    "no colon": basic("pdsc_abc"),
    "not base64": "Basic !!!not-base64!!!",
    "not UTF-8": `Basic ${Buffer.from([0xff, 0xfe, 0x3a]).toString("base64")}`,
    "a NUL in the id": basic("pdsc_%00:"),
    "an empty id": basic(":"),
    "no credentials": "Basic",
  };

  it.each(Object.entries(malformed))("%s: 401 invalid_client with a Basic challenge", async (_, header) => {
    for (const [path, form] of [
      ["/oauth/token", { grant_type: "refresh_token", refresh_token: "x" }],
      ["/oauth/revoke", { token: newAccessToken() }],
    ] as const) {
      const answer = await postWith(path, header, form);
      expect(answer.status, path).toBe(401);
      expect(answer.body.error, path).toBe("invalid_client");
      expect(answer.headers.get("www-authenticate"), path).toMatch(/^Basic realm="/);
    }
  });

  it("well-formed Basic still names the client (form-encoded, RFC 6749 §2.3.1)", async () => {
    const clientId = await registerClient();
    const { refresh } = await approveAndExchange((await makeMember()).id, clientId, ["todos:read"]);
    const encoded = clientId.replace(/_/g, "%5F");
    const answer = await postWith("/oauth/token", basic(`${encoded}:`), {
      grant_type: "refresh_token",
      refresh_token: refresh,
    });
    expect(answer.status).toBe(200);
    expect((await postWith("/oauth/revoke", basic(`${clientId}:`), { token: answer.body.refresh_token })).status).toBe(
      200,
    );
  });
});

describe("the authorization request", () => {
  it("without response_type is invalid_request; an unsupported one is unsupported_response_type", async () => {
    const clientId = await registerClient();
    expect(await authorizeOutcome(authorizeParams(clientId, { response_type: undefined }))).toEqual({
      error: "invalid_request",
    });
    expect(await authorizeOutcome(authorizeParams(clientId, { response_type: "token" }))).toEqual({
      error: "unsupported_response_type",
    });
  });
});

describe("the registration body limit", () => {
  const LIMIT = REGISTRATION_MAX_BYTES;
  /** A registration whose JSON is exactly `bytes` long in UTF-8, padded with "€" (3 bytes, 1 character). */
  const bodyOf = (bytes: number) => {
    const head = `{"redirect_uris":["https://a.example/cb"],"software_id":"`;
    const room = bytes - Buffer.byteLength(`${head}"}`);
    return `${head}${"€".repeat(Math.floor(room / 3))}${"x".repeat(room % 3)}"}`;
  };

  it("counts bytes, not characters", async () => {
    expect(Buffer.byteLength(bodyOf(LIMIT))).toBe(LIMIT);
    expect((await registerRaw(bodyOf(LIMIT))).status).toBe(201);
    const over = bodyOf(LIMIT + 1);
    expect(over.length).toBeLessThan(LIMIT / 2);
    const refused = await registerRaw(over);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" });
    expect((await registerRaw(`{"client_name":"${"€".repeat(10_000)}"}`)).status).toBe(400);
  });
});
