export type { OAuthClient } from "./client-rules.ts";
export { redirectMatches } from "./client-rules.ts";
import { randomBytes } from "node:crypto";
import { asService, type Queryable } from "../../db/index.ts";
import { fetchClientMetadata } from "./client-metadata.ts";
import { checkClientMetadata, type ClientMetadata, type OAuthClient } from "./client-rules.ts";

/** Dynamically registered clients unused this long (and holding no live grant) are deleted (upkeep). */
export const UNUSED_CLIENT_DAYS = 30;

const hostOf = (value: string) => URL.parse(value)?.host || value.slice(0, 200);

/** RFC 7591 registration of a public client (no secret: PKCE protects the code). */
export async function registerClient(metadata: ClientMetadata): Promise<OAuthClient> {
  checkClientMetadata(metadata);
  const id = `pdsc_${randomBytes(16).toString("base64url")}`;
  const name = metadata.client_name ?? hostOf(metadata.redirect_uris[0] ?? "");
  await asService((tx) =>
    tx.query(
      `insert into app_private.oauth_clients (id, name, logo_uri, client_uri, redirect_uris) values ($1, $2, $3, $4, $5)`,
      [id, name, metadata.logo_uri ?? null, metadata.client_uri ?? null, metadata.redirect_uris],
    ),
  );
  return {
    id,
    kind: "registered",
    name,
    logoUri: metadata.logo_uri,
    clientUri: metadata.client_uri,
    redirectUris: metadata.redirect_uris,
  };
}

/** The client a client_id names: a registered one, or the metadata document at an https client_id. */
export async function findClient(clientId: string): Promise<OAuthClient | null> {
  if (clientId.startsWith("https://")) return fetchClientMetadata(clientId);
  if (!clientId.startsWith("pdsc_") || clientId.length > 100) return null;
  const [row] = await asService((tx) =>
    tx.query<{ id: string; name: string; logo_uri: string | null; client_uri: string | null; redirect_uris: string[] }>(
      `update app_private.oauth_clients set last_used_at = now() where id = $1
       returning id, name, logo_uri, client_uri, redirect_uris`,
      [clientId],
    ),
  );
  if (!row) return null;
  return {
    id: row.id,
    kind: "registered",
    name: row.name,
    logoUri: row.logo_uri ?? undefined,
    clientUri: row.client_uri ?? undefined,
    redirectUris: row.redirect_uris,
  };
}

/** Upkeep: registered clients unused for UNUSED_CLIENT_DAYS with no live grant. Answers how many went. */
export async function expireUnusedClients(tx: Queryable): Promise<number> {
  const rows = await tx.query(
    `delete from app_private.oauth_clients c
     where c.last_used_at < now() - make_interval(days => $1)
       and not exists (select 1 from app_private.oauth_grants g where g.client_id = c.id and g.revoked_at is null)
     returning c.id`,
    [UNUSED_CLIENT_DAYS],
  );
  return rows.length;
}
