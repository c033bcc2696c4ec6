import { z } from "zod";
import { OAuthError } from "./errors.ts";

/** A client as the authorization server knows it, registered (RFC 7591) or by metadata document. */
export interface OAuthClient {
  id: string;
  kind: "registered" | "metadata_document";
  name: string;
  logoUri?: string;
  clientUri?: string;
  redirectUris: readonly string[];
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** Schemes a redirect may never use: a page or file the browser would open, not an app. */
const REFUSED_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "about:",
  "blob:",
  "ftp:",
  "ws:",
  "wss:",
]);

const isLoopbackHttp = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);

/**
 * A redirect URI a client may register: https, http to a loopback host (a native app's local
 * listener, RFC 8252 §7.3), or an app's own scheme (RFC 8252 §7.1: cursor://, vscode://, com.example:/).
 * Never a fragment (RFC 6749 §3.1.2).
 */
export function isAcceptableRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes("#")) return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return isLoopbackHttp(url);
  return !REFUSED_SCHEMES.has(url.protocol);
}

/**
 * Exact string matching (OAuth 2.1 §2.3.1), except that a loopback http redirect matches on any
 * port (RFC 8252 §7.3): native apps bind whatever port is free when the request starts.
 */
export function redirectMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  let asked: URL;
  try {
    asked = new URL(presented);
  } catch {
    return false;
  }
  if (!isLoopbackHttp(asked)) return false;
  return registered.some((entry) => {
    const known = URL.parse(entry);
    return (
      known !== null &&
      isLoopbackHttp(known) &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search &&
      !asked.username &&
      !asked.password
    );
  });
}

const uri = z.string().max(2000);
/** What a registration or a metadata document says about the client (RFC 7591 §2); the rest is ignored. */
export const clientMetadataSchema = z.object({
  redirect_uris: z.array(uri).min(1).max(10),
  client_name: z.string().trim().min(1).max(200).optional(),
  logo_uri: z
    .url({ protocol: /^https$/ })
    .max(2000)
    .optional()
    .catch(undefined),
  client_uri: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional()
    .catch(undefined),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
  scope: z.string().optional(),
});
export type ClientMetadata = z.infer<typeof clientMetadataSchema>;

/** Checks what both kinds of client must satisfy; answers the client's display name. */
export function checkClientMetadata(metadata: ClientMetadata): void {
  const bad = metadata.redirect_uris.find((value) => !isAcceptableRedirect(value));
  if (bad !== undefined) {
    throw new OAuthError(
      "invalid_redirect_uri",
      `Redirect URI not allowed: ${bad.slice(0, 200)} (https, http to a loopback host, or an app's own scheme; no fragment).`,
    );
  }
  const grants = metadata.grant_types ?? ["authorization_code"];
  if (
    !grants.includes("authorization_code") ||
    grants.some((g) => g !== "authorization_code" && g !== "refresh_token")
  ) {
    throw new OAuthError(
      "invalid_client_metadata",
      "grant_types: only authorization_code and refresh_token are offered.",
    );
  }
  if (metadata.response_types?.some((type) => type !== "code")) {
    throw new OAuthError("invalid_client_metadata", 'response_types: only "code" is offered.');
  }
}
