import { withCors } from "../http/cors.ts";
import { type EveryMethod, everyMethod, OTHER_METHODS, type RouteMethod } from "../http/method-not-allowed.ts";
import { decodePathSegments, malformedPathResponse } from "../http/path-segments.ts";
import { handleApiIndex } from "./api-index.ts";
import { FIXED_ROUTES } from "./fixed-routes.ts";
import { health } from "./health.ts";
import { handleInvoke } from "./invoke.ts";
import { mcpRoute } from "./mcp.ts";
import { handleOpenApi } from "./openapi-http.ts";
import { handleRest, handleRestOptions } from "./rest.ts";
import { handleToolCatalog } from "./tools-http.ts";

export type FetchHandler = (request: Request) => Promise<Response>;

/** The API's fixed routes outside the REST surface (lib/surfaces/fixed-routes.ts); their route files export these very handlers. */
export const apiIndexRoute = everyMethod({ GET: handleApiIndex }, { cors: true });
export const healthRoute = everyMethod({ GET: health }, { cors: true });
export const openApiRoute = everyMethod({ GET: handleOpenApi }, { cors: true });
export const toolCatalogRoute = everyMethod({ GET: handleToolCatalog }, { cors: true });
export const invokeRoute = everyMethod({ POST: handleInvoke }, { cors: true });

const DIRECT: Record<string, EveryMethod> = {
  apiIndexRoute,
  healthRoute,
  openApiRoute,
  toolCatalogRoute,
  invokeRoute,
  mcpRoute,
};

/** The fixed routes server.ts answers itself, by path. */
const FIXED: Record<string, EveryMethod> = Object.fromEntries(
  FIXED_ROUTES.filter((route) => route.direct).map((route) => {
    const methods = DIRECT[route.name];
    if (!methods) throw new Error(`${route.path}: ${route.name} is not one of api-routes.ts's direct routes`);
    return [route.path, methods];
  }),
);

const REST_PREFIX = "/api/v1/";
/** Unreserved and sub-delimiter characters only: nothing to percent-decode, nothing Next would rewrite. */
const CANONICAL = /^\/api(?:\/[A-Za-z0-9\-_.~!$&'()*+,;=:@]+)+$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * The handler the Node server (server.ts) calls itself for a request, without Next's router in
 * between, or null to leave the request to Next. It answers what the route files answer on Next, so
 * it takes only a path they would get unchanged: a canonical one (Next redirects a trailing slash
 * and resolves dot segments; proxy.ts answers a path with "%"). Every method is the route's: one
 * Next does not route (PROPFIND…), which it would answer with a bare 400, gets the route's 405.
 * Cron, pages and storage stay on Next.
 */
export function apiHandler(method: string, pathname: string): FetchHandler | null {
  if (!CANONICAL.test(pathname) || DOT_SEGMENT.test(pathname)) return null;
  const fixed = FIXED[pathname];
  if (fixed) return Object.hasOwn(fixed, method) ? fixed[method as RouteMethod] : fixed[OTHER_METHODS];
  if (!pathname.startsWith(REST_PREFIX)) return null;
  const segments = pathname.slice(REST_PREFIX.length).split("/");
  if (method === "OPTIONS") return (request) => restOptions(request, segments);
  return (request) => rest(request, segments);
}

/** The REST surface for a path's segments: here and in rest-route.ts (its route files). */
export const rest = withCors(handleRest);
export const restOptions = withCors(handleRestOptions);

/**
 * The API as server.ts and Next's routing answer it between them, for a server without Next
 * (scripts/serve-rest.ts, the tests' listener): apiHandler's routes, then a percent-encoded REST
 * path decoded as proxy.ts and Next do (400 when it cannot be), else 404.
 */
export async function handleApiWithoutNext(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const direct = apiHandler(request.method, pathname);
  if (direct) return direct(request);
  const segments = pathname.startsWith(REST_PREFIX) ? decodePathSegments(pathname.slice(REST_PREFIX.length)) : null;
  if (segments) return request.method === "OPTIONS" ? restOptions(request, segments) : rest(request, segments);
  return (
    malformedPathResponse(pathname, request.headers) ??
    new Response(JSON.stringify({ error: "only the API is served here" }), { status: 404 })
  );
}
