import { clientMetadataSchema } from "../../auth/oauth/client-rules.ts";
import { registerClient } from "../../auth/oauth/clients.ts";
import { OAuthError } from "../../auth/oauth/errors.ts";
import { unstorablePath } from "../../db/storable-text.ts";
import { exchangeCode, refreshTokens, revokeOAuthToken } from "../../auth/oauth/tokens.ts";
import { readCapped } from "../../http/body.ts";
import { clientAddress } from "../../http/client-address.ts";
import { rateLimitStore } from "../../http/rate-limit-store.ts";
import { clientIdOf, oauthErrorResponse, oauthJson, readForm } from "./respond.ts";

/** Dynamic registrations per client address: 20 an hour (a client registers once per install). */
export const REGISTRATIONS_PER_HOUR = 20;
/** A registration's body, in bytes (16 KiB): metadata is a few URLs and a name. */
export const REGISTRATION_MAX_BYTES = 16 * 1024;

const required = (form: Map<string, string>, name: string) => {
  const value = form.get(name);
  if (!value) throw new OAuthError("invalid_request", `${name} is required.`);
  return value;
};

/** POST /oauth/token: the authorization_code and refresh_token grants (OAuth 2.1 §3.2). */
export async function handleToken(request: Request): Promise<Response> {
  try {
    const form = await readForm(request);
    const clientId = clientIdOf(request, form);
    const resource = form.get("resource");
    const grantType = required(form, "grant_type");
    if (grantType === "authorization_code") {
      const tokens = await exchangeCode({
        code: required(form, "code"),
        clientId,
        redirectUri: required(form, "redirect_uri"),
        codeVerifier: required(form, "code_verifier"),
        resource,
      });
      return oauthJson(request, 200, tokens);
    }
    if (grantType === "refresh_token") {
      const tokens = await refreshTokens({
        refreshToken: required(form, "refresh_token"),
        clientId,
        resource,
        scope: form.get("scope"),
      });
      return oauthJson(request, 200, tokens);
    }
    throw new OAuthError("unsupported_grant_type", "Only authorization_code and refresh_token are offered.");
  } catch (error) {
    return oauthErrorResponse(request, error);
  }
}

/** POST /oauth/revoke (RFC 7009): 200 whether or not the token was known. */
export async function handleRevoke(request: Request): Promise<Response> {
  try {
    const form = await readForm(request);
    const clientId = clientIdOf(request, form);
    await revokeOAuthToken(required(form, "token"), clientId);
    return oauthJson(request, 200, {});
  } catch (error) {
    return oauthErrorResponse(request, error);
  }
}

/** POST /oauth/register (RFC 7591): a public client; rate limited per client address. */
export async function handleRegister(request: Request): Promise<Response> {
  try {
    const store = await rateLimitStore();
    const { allowed } = await store.take([
      {
        key: `pds:rl:{r:${clientAddress(request.headers)}}:register`,
        capacity: REGISTRATIONS_PER_HOUR,
        refillPerSecond: REGISTRATIONS_PER_HOUR / 3600,
      },
    ]);
    if (!allowed) {
      return oauthJson(
        request,
        429,
        { error: "too_many_requests", error_description: "Too many registrations; try later." },
        { "Retry-After": "180" },
      );
    }
    let body: unknown;
    try {
      const bytes = await readCapped(request, REGISTRATION_MAX_BYTES);
      if (bytes === null) throw new Error("too large");
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new OAuthError(
        "invalid_client_metadata",
        `Send the client metadata as a JSON object in UTF-8 (at most ${REGISTRATION_MAX_BYTES} bytes).`,
      );
    }
    const unstorable = unstorablePath(body);
    if (unstorable) {
      const code = unstorable[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
      throw new OAuthError(
        code,
        `${unstorable.join(".")}: holds text that cannot be stored (U+0000 or a lone surrogate).`,
      );
    }
    const parsed = clientMetadataSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const code = issue?.path[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
      throw new OAuthError(code, `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
    }
    const client = await registerClient(parsed.data);
    return oauthJson(request, 201, {
      client_id: client.id,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
      ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    });
  } catch (error) {
    return oauthErrorResponse(request, error);
  }
}
