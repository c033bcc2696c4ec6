/**
 * The routes outside the registry's REST surface, listed once: their route files under app/ are
 * generated from this list (scripts/build-rest-routes.ts), server.ts answers the `direct` ones itself
 * (lib/surfaces/api-routes.ts), and the OpenAPI document describes those with an `openapi` path
 * (lib/surfaces/openapi-agent.ts). Data only: `module` and `name` say which export holds the methods.
 */
export interface FixedRoute {
  /** The URL path; `[...key]` is a catch-all segment, as in app/. */
  path: string;
  /**
   * The module (from the project root, as `@/…` imports it) and its export: a handler for each of
   * Next's methods (everyMethod, lib/http/method-not-allowed.ts), so none gets Next's bare 405.
   */
  module: string;
  name: string;
  /** server.ts answers it without Next's router (the same handlers as its route file). */
  direct: boolean;
  /** Its path in the OpenAPI document (under the /api/v1, /api/agent or /api server), if it is described there. */
  openapi?: string;
}

const API_ROUTES = "lib/surfaces/api-routes";

export const FIXED_ROUTES: readonly FixedRoute[] = [
  { path: "/api/v1", module: API_ROUTES, name: "apiIndexRoute", direct: true, openapi: "/v1" },
  {
    path: "/api/v1/health",
    module: API_ROUTES,
    name: "healthRoute",
    direct: true,
    openapi: "/health",
  },
  {
    path: "/api/v1/openapi.json",
    module: API_ROUTES,
    name: "openApiRoute",
    direct: true,
    openapi: "/openapi.json",
  },
  {
    path: "/api/agent/tools",
    module: API_ROUTES,
    name: "toolCatalogRoute",
    direct: true,
    openapi: "/tools",
  },
  {
    path: "/api/agent/invoke",
    module: API_ROUTES,
    name: "invokeRoute",
    direct: true,
    openapi: "/invoke",
  },
  { path: "/api/mcp", module: "lib/surfaces/mcp", name: "mcpRoute", direct: true },
  { path: "/api/cron/upkeep", module: "lib/upkeep/cron-route", name: "cronRoute", direct: false },
  {
    path: "/storage/upload/[...key]",
    module: "lib/domain/uploads/routes",
    name: "uploadRoute",
    direct: false,
  },
  {
    path: "/storage/media/[...key]",
    module: "lib/domain/uploads/routes",
    name: "mediaRoute",
    direct: false,
  },
];

/** The paths the OpenAPI document describes beside the capabilities. */
export const NON_CAPABILITY_PATHS: readonly string[] = FIXED_ROUTES.flatMap((route) =>
  route.openapi ? [route.openapi] : [],
);
