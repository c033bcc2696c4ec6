import { OAuthError } from "../../auth/oauth/errors.ts";
import { isStorableText } from "../../db/storable-text.ts";
import { readCapped } from "../../http/body.ts";

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

/**
 * RFC 6749 §5.2: {error, error_description}; 401 for invalid_client, with a Basic challenge when the
 * client tried to authenticate by the Authorization header (the scheme it used must be answered).
 */
export function oauthErrorResponse(request: Request, error: unknown): Response {
  if (error instanceof OAuthError) {
    const challenge =
      error.code === "invalid_client" && basicCredentials(request) !== undefined
        ? { "WWW-Authenticate": 'Basic realm="pds"' }
        : undefined;
    return oauthJson(request, error.status, { error: error.code, error_description: error.message }, challenge);
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

/** A token or revocation request's body, in bytes (64 KiB): a few short parameters. */
const FORM_MAX_BYTES = 64 * 1024;

/** A form-encoded body (RFC 6749 §4.1.3); a parameter sent twice is an error (§3.1). */
export async function readForm(request: Request): Promise<Map<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const bytes = await readCapped(request, FORM_MAX_BYTES);
  if (bytes === null) throw new OAuthError("invalid_request", `The body is larger than ${FORM_MAX_BYTES} bytes.`);
  const params = new URLSearchParams(new TextDecoder().decode(bytes));
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

/** The credentials of an Authorization header of the Basic scheme ("" when it has none), else undefined. */
function basicCredentials(request: Request): string | undefined {
  const [scheme = "", ...rest] = (request.headers.get("authorization") ?? "").trim().split(/\s+/);
  return scheme.toLowerCase() === "basic" ? rest.join(" ") : undefined;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The client_id of Basic credentials: base64 of the form-encoded id, ":", and the secret (RFC 6749
 * §2.3.1). Anything else is a failed client authentication (401 invalid_client, §5.2), never a guess.
 */
function basicClientId(credentials: string): string {
  const refuse = (why: string) => new OAuthError("invalid_client", `The Basic credentials are malformed: ${why}.`, 401);
  if (!credentials) throw refuse("none given");
  if (!BASE64.test(credentials)) throw refuse("not base64");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(credentials, "base64"));
  } catch {
    throw refuse("not UTF-8");
  }
  const colon = text.indexOf(":");
  if (colon === -1) throw refuse('no ":" between client_id and secret');
  let clientId: string;
  try {
    clientId = decodeURIComponent(text.slice(0, colon).replace(/\+/g, " "));
  } catch {
    throw refuse("the client_id is not form-encoded UTF-8");
  }
  if (!clientId) throw refuse("no client_id");
  if (!isStorableText(clientId)) throw refuse("the client_id holds text no client has (U+0000)");
  return clientId;
}

/**
 * The client of a token or revocation request: public clients send client_id in the body; HTTP
 * Basic is read too (with no secret to check: none was ever issued), so either way names one client.
 */
export function clientIdOf(request: Request, form: Map<string, string>): string {
  const credentials = basicCredentials(request);
  const fromBasic = credentials === undefined ? undefined : basicClientId(credentials);
  const fromBody = form.get("client_id");
  if (fromBasic && fromBody && fromBasic !== fromBody)
    throw new OAuthError("invalid_request", "Two different client_ids.");
  const clientId = fromBody ?? fromBasic;
  if (!clientId) throw new OAuthError("invalid_client", "client_id is required.", 401);
  return clientId;
}
