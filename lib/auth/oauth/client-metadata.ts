import { type Env, setting } from "../../config/env.ts";
import { mustUseServerDatabase } from "../../db/config.ts";
import { unstorablePath } from "../../db/storable-text.ts";
import { GuardedFetchError, guardedFetch } from "../../net/guarded-fetch.ts";
import { BlockedAddressError } from "../../net/ssrf-guard.ts";
import { checkClientMetadata, clientMetadataSchema, type OAuthClient } from "./client-rules.ts";
import { OAuthError } from "./errors.ts";

/** The draft's advice (draft-ietf-oauth-client-id-metadata-document §6.6): a few kilobytes. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
export const CLIENT_METADATA_TIMEOUT_MS = 3000;
/** How long a fetched document is used before it is fetched again. */
export const CLIENT_METADATA_CACHE_SECONDS = 600;
const MAX_ENTRIES = 1000;

const cache = new Map<string, { client: OAuthClient; until: number }>();

/**
 * Hosts exempt from the SSRF guard for metadata documents: OAUTH_CLIENT_METADATA_ALLOW_HOSTS, a
 * comma list, for the browser tests' own document server on 127.0.0.1. Never honoured in
 * production (mustUseServerDatabase: Vercel, or the container image), where it would let a
 * client_id aim the server at its own network. Still https only, still no redirects.
 */
export function clientMetadataAllowHost(env?: Env) {
  const hosts = new Set(mustUseServerDatabase(env) ? [] : setting("OAUTH_CLIENT_METADATA_ALLOW_HOSTS", env));
  return (hostname: string) => hosts.has(hostname.replace(/^\[|\]$/g, "").toLowerCase());
}

/** An https client_id with a path (the draft's §3): anything else is not a metadata document URL. */
function documentUrl(clientId: string): URL {
  const url = URL.parse(clientId);
  if (url?.protocol !== "https:" || url.pathname === "/" || url.hash || url.username || url.password) {
    throw new OAuthError(
      "invalid_client",
      "A client_id URL must be https, with a path, and no fragment or credentials.",
    );
  }
  return url;
}

/**
 * The client a metadata document describes (client ID metadata documents, the MCP authorization
 * spec's preferred way): fetched through the SSRF guard (https only, public addresses, no
 * redirects, at most 5 KB in 3 s) and kept for 10 minutes. Its client_id must be the URL itself.
 */
export async function fetchClientMetadata(clientId: string): Promise<OAuthClient> {
  const hit = cache.get(clientId);
  if (hit && hit.until > Date.now()) return hit.client;
  const url = documentUrl(clientId);
  let body: string;
  try {
    const answer = await guardedFetch(url, {
      httpsOnly: true,
      maxRedirects: 0,
      maxBytes: CLIENT_METADATA_MAX_BYTES,
      timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
      allowHost: clientMetadataAllowHost(),
    });
    if (answer.status !== 200)
      throw new OAuthError("invalid_client", `The client metadata document answered ${answer.status}.`);
    body = answer.body;
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    if (error instanceof BlockedAddressError) {
      throw new OAuthError("invalid_client", "The client metadata document is on a private or reserved address.");
    }
    if (error instanceof GuardedFetchError) {
      const reason = /redirect/i.test(error.message) ? "redirects (not followed)" : error.message;
      throw new OAuthError("invalid_client", `The client metadata document could not be read: ${reason}`);
    }
    throw new OAuthError("invalid_client", "The client metadata document could not be fetched.");
  }
  const client = parseDocument(clientId, body);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(clientId, { client, until: Date.now() + CLIENT_METADATA_CACHE_SECONDS * 1000 });
  return client;
}

function parseDocument(clientId: string, body: string): OAuthClient {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new OAuthError("invalid_client", "The client metadata document is not JSON.");
  }
  // Its name and logo are stored with each grant.
  if (unstorablePath(json))
    throw new OAuthError(
      "invalid_client",
      "The client metadata document holds text that cannot be stored (U+0000 or a lone surrogate).",
    );
  const parsed = clientMetadataSchema.extend({ client_id: clientMetadataSchema.shape.scope }).safeParse(json);
  if (!parsed.success)
    throw new OAuthError("invalid_client", "The client metadata document lacks redirect_uris or has malformed fields.");
  const doc = parsed.data;
  if (doc.client_id !== clientId)
    throw new OAuthError("invalid_client", "The document's client_id is not its own URL.");
  // Public clients only: a shared secret cannot be published in a document.
  const method = doc.token_endpoint_auth_method ?? "none";
  if (method !== "none")
    throw new OAuthError("invalid_client", `token_endpoint_auth_method ${method} is not offered; use none.`);
  try {
    checkClientMetadata(doc);
  } catch (error) {
    throw new OAuthError("invalid_client", (error as Error).message);
  }
  return {
    id: clientId,
    kind: "metadata_document",
    name: doc.client_name ?? new URL(clientId).host,
    logoUri: doc.logo_uri,
    clientUri: doc.client_uri,
    redirectUris: doc.redirect_uris,
  };
}

/** Tests: forget every cached document. */
export function forgetClientMetadata(): void {
  cache.clear();
}
