import path from "node:path";
import { ROUTE_METHODS } from "../http/method-not-allowed.ts";
import { FIXED_ROUTES, type FixedRoute } from "./fixed-routes.ts";
import { routes } from "./rest-routes.ts";

/**
 * Route files of their own for the registry's fixed REST paths (/collections, /search, …): Next
 * answers a static route with less work than the [...path] catch-all, about 0.1 ms of CPU per
 * request (bench/results/2026-11-23-third-pass.md). Paths with a parameter stay on the catch-all.
 * Written by scripts/build-rest-routes.ts; test/surfaces/static-routes.test.ts fails when stale.
 */
export const REST_ROUTE_ROOT = path.join("app", "api", "v1");
export const GENERATED_MARK = "// Generated from the registry by scripts/build-rest-routes.ts";

export function fixedRestPaths(): string[][] {
  const seen = new Map<string, string[]>();
  for (const route of routes) {
    if (route.segments.some((segment) => segment.startsWith("{"))) continue;
    seen.set(route.segments.join("/"), [...route.segments]);
  }
  return [...seen.values()];
}

export function routeFile(segments: readonly string[]): { file: string; source: string } {
  return {
    file: path.join(REST_ROUTE_ROOT, ...segments, "route.ts"),
    source: `${GENERATED_MARK}; do not edit (test/surfaces/static-routes.test.ts).
// /api/v1/${segments.join("/")} as a route of its own, not through the [...path] catch-all (lib/surfaces/rest-route-files.ts).
import { restRoute } from "@/lib/surfaces/rest-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PATCH, PUT, DELETE, OPTIONS } = restRoute([${segments.map((segment) => JSON.stringify(segment)).join(", ")}]);
`,
  };
}

export const FIXED_ROUTE_MARK = "// Generated from lib/surfaces/fixed-routes.ts by scripts/build-rest-routes.ts";

/** The route file of a route outside the registry (health, the agent's tools and invoke, MCP, cron, storage). */
export function fixedRouteFile(route: FixedRoute): { file: string; source: string } {
  return {
    file: path.join("app", ...route.path.split("/").filter(Boolean), "route.ts"),
    source: `${FIXED_ROUTE_MARK}; do not edit (test/surfaces/static-routes.test.ts).
import { ${route.name} } from "@/${route.module}";

export const dynamic = "force-dynamic";

export const { ${ROUTE_METHODS.join(", ")} } = ${route.name};
`,
  };
}

/** Every generated route file: the registry's fixed REST paths, then the routes outside it. */
export function generatedRouteFiles(): { file: string; source: string }[] {
  return [...fixedRestPaths().map(routeFile), ...FIXED_ROUTES.map(fixedRouteFile)];
}
