import * as prm from "@/app/.well-known/oauth-protected-resource/[[...path]]/route";
import * as asm from "@/app/.well-known/oauth-authorization-server/route";
import * as mcpRoute from "@/app/api/mcp/route";
import * as register from "@/app/oauth/register/route";
import * as revoke from "@/app/oauth/revoke/route";
import * as token from "@/app/oauth/token/route";
import { randomBytes } from "node:crypto";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { handleApiWithoutNext } from "@/lib/surfaces/api-routes";

type Handler = (request: Request) => Promise<Response>;
const PRM = "/.well-known/oauth-protected-resource";
/** This process's client address, as server.ts records one on every request (registration is limited per address). */
const ADDRESS = `2001:db8:1::${randomBytes(2).toString("hex")}`;

/**
 * A fetch that hands each request to the real route handler in-process, by path, whatever the host:
 * what an OAuth client (the MCP SDK's) reaches on the running server. The rest of the API goes
 * where server.ts sends it.
 */
export const oauthRouteFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const given = new Request(input, init);
  const headers = new Headers(given.headers);
  if (!headers.has(CLIENT_ADDRESS_HEADER)) headers.set(CLIENT_ADDRESS_HEADER, ADDRESS);
  const request = new Request(given, { headers });
  const { pathname } = new URL(request.url);
  const pick = (module: object): Handler | undefined => (module as Record<string, Handler | undefined>)[request.method];
  let handler: Handler | undefined;
  if (pathname === PRM || pathname.startsWith(`${PRM}/`)) {
    const path = pathname.slice(PRM.length).split("/").filter(Boolean);
    const get = (prm as unknown as Record<string, (r: Request, c: unknown) => Promise<Response>>)[request.method];
    return get ? get(request, { params: Promise.resolve({ path }) }) : new Response(null, { status: 405 });
  }
  if (pathname === "/.well-known/oauth-authorization-server") handler = pick(asm);
  else if (pathname === "/oauth/token") handler = pick(token);
  else if (pathname === "/oauth/register") handler = pick(register);
  else if (pathname === "/oauth/revoke") handler = pick(revoke);
  else if (pathname === "/api/mcp") handler = pick(mcpRoute);
  else if (pathname.startsWith("/api/")) handler = handleApiWithoutNext;
  else if (pathname.startsWith("/.well-known/")) return new Response("not found", { status: 404 });
  if (!handler) return new Response(null, { status: 405 });
  return handler(request);
};

/** A form post to one of the endpoints, answered as JSON. */
export async function oauthPost(path: string, form: Record<string, string>) {
  const response = await oauthRouteFetch(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** One JSON-RPC request to MCP (at `url`) with an OAuth access token, through the real route. */
export const mcpRequest = (url: string, token: string, method: string, params: object = {}) =>
  oauthRouteFetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
