/**
 * @personal-data-service/client — the REST API (/api/v1) with types generated from its OpenAPI
 * document (src/schema.d.ts, `npm run client:generate`) and openapi-fetch doing the requests.
 * openapi-fetch is a 6 kB wrapper around fetch: no runtime schema, so the client is as fresh as
 * the types and cannot drift from the service's answers (a test regenerates and compares them).
 */
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, paths };
export type Problem = components["schemas"]["Problem"];
export type PdsClient = Client<paths>;

export interface ClientOptions {
  /** The site (https://pds.example.org) or the API base (https://pds.example.org/api/v1). */
  baseUrl: string;
  /** A personal access token (pds_…), sent as Authorization: Bearer. */
  token: string;
  /** Another fetch (tests, proxies, retries). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The API base from either the site URL or the API base itself. */
export function apiBase(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, "");
  return root.endsWith("/api/v1") ? root : `${root}/api/v1`;
}

/**
 * A client whose methods are the API's paths: `pds.GET("/collections", { params: { query: { limit: 20 } } })`
 * answers `{ data, error, response }`, where `error` is the problem+json body (typed as Problem).
 */
export function createClient({ baseUrl, token, fetch }: ClientOptions): PdsClient {
  const client = createFetchClient<paths>({ baseUrl: apiBase(baseUrl), fetch });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${token}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}
