import { OAuthError } from "../../auth/oauth/errors.ts";
import { isStorableText } from "../../db/storable-text.ts";

/**
 * The authorization server's endpoints are called by clients of any origin (browser-based MCP
 * clients too) and never with cookies: every origin may read them (no credentials, RFC 8414 §3 and
 * the MCP authorization spec expect discovery from a browser).
 */
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "WWW-Authenticate",
};

export function oauthJson(
  _request: Request,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      ...CORS,
      ...headers,
    },
  });
}

/** RFC 6749 §5.2: {error, error_description}; 401 for invalid_client. */
export function oauthErrorResponse(request: Request, error: unknown): Response {
  if (error instanceof OAuthError) {
    return oauthJson(request, error.status, { error: error.code, error_description: error.message });
  }
  console.error("oauth: unexpected error", error);
  return oauthJson(request, 500, { error: "server_error", error_description: "The server failed; try again." });
}

/** OPTIONS for an endpoint of `methods`. */
export function oauthPreflight(methods: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      Allow: methods.join(", "),
      "Access-Control-Allow-Methods": methods.join(", "),
      "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
      "Access-Control-Max-Age": "7200",
    },
  });
}

/** A form-encoded body (RFC 6749 §4.1.3); a parameter sent twice is an error (§3.1). */
export async function readForm(request: Request): Promise<Map<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const text = await request.text();
  if (text.length > 64 * 1024) throw new OAuthError("invalid_request", "The body is too large.");
  const params = new URLSearchParams(text);
  const form = new Map<string, string>();
  for (const [name, value] of params) {
    if (form.has(name)) throw new OAuthError("invalid_request", `${name} is given more than once.`);
    if (!isStorableText(name) || !isStorableText(value)) throw unstorable(name);
    form.set(name, value);
  }
  return form;
}

/** A client_id no client can have names none (RFC 6749 §5.2 invalid_client); any other parameter is malformed. */
function unstorable(name: string): OAuthError {
  const what = "holds text that cannot be stored (U+0000 or a lone surrogate)";
  if (name === "client_id") return new OAuthError("invalid_client", `client_id ${what}: no client has it.`, 401);
  return new OAuthError("invalid_request", `${isStorableText(name) ? name : "A parameter's name"} ${what}.`);
}

/**
 * The client of a token or revocation request: public clients send client_id in the body; HTTP
 * Basic is read too (with no secret to check: none was ever issued), so either way names one client.
 */
export function clientIdOf(request: Request, form: Map<string, string>): string {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const fromBasic = basic
    ? decodeURIComponent(Buffer.from(basic, "base64").toString("utf8").split(":")[0] ?? "")
    : undefined;
  const fromBody = form.get("client_id");
  if (fromBasic && fromBody && fromBasic !== fromBody)
    throw new OAuthError("invalid_request", "Two different client_ids.");
  const clientId = fromBody ?? fromBasic;
  if (!clientId) throw new OAuthError("invalid_client", "client_id is required.", 401);
  return clientId;
}
