import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NON_CAPABILITY_PATHS } from "@/lib/surfaces/openapi-agent";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { matchRoute, routes } from "@/lib/surfaces/rest-routes";
import { toolCatalog } from "@/lib/surfaces/tools";
import { capabilities, capabilityByTool, securityRequirements } from "@/registry/capabilities";
import { directives } from "@/registry/index";
import { SCOPES } from "@/registry/scopes";
import { fixedRestPaths } from "@/lib/surfaces/rest-route-files";

/**
 * The three surfaces (REST, tool catalog, OpenAPI reference) show the registry's capabilities, all
 * of them and nothing else. Directives are the one declared exception: they are tools without a
 * REST route or an OpenAPI operation, and appear in the reference as x-directives instead.
 */
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const catalogNames = (toolCatalog(SCOPES, "pds") as { name: string }[]).map((tool) => tool.name);

/** Route files under app/api that are not the registry's: each named with why it exists. */
const NON_CAPABILITY_ROUTE_FILES: Record<string, string> = {
  "api/v1/[...path]/route.ts": "the REST catch-all: serves exactly lib/surfaces/rest-routes.ts `routes`",
  "api/v1/route.ts": "the REST base path's public index: where the reference and docs are (GET /v1 in the reference)",
  "api/v1/health/route.ts": "public liveness/readiness, no token (GET /health in the reference)",
  "api/v1/openapi.json/route.ts": "this reference, public (GET /openapi.json)",
  "api/agent/tools/route.ts": "the tool catalog itself",
  "api/agent/invoke/route.ts": "runs catalog tools",
  "api/mcp/route.ts": "MCP: lists and calls the catalog's tools",
  "api/cron/upkeep/route.ts": "the scheduler's purge of expired rows (CRON_SECRET), not a member capability",
};

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const operations = Object.entries(doc.paths as Json).flatMap(([p, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ path: p, method: m.toUpperCase(), op: item[m] as Json })),
);

describe("parity: REST, tools and the reference show the same capabilities", () => {
  it.each(capabilities.map((c) => [c.tool, c] as const))("%s is on every surface it belongs to", (_, capability) => {
    expect(catalogNames).toContain(capability.tool);
    expect(doc["x-tools"].map((t: Json) => t.name)).toContain(capability.tool);
    const operation = operations.find((o) => o.op.operationId === capability.tool);
    if (capability.source.kind === "directive") {
      // Declared exception: a browser directive has no REST route and no operation.
      expect(capability.http).toBeUndefined();
      expect(routes.some((r) => r.capability.tool === capability.tool)).toBe(false);
      expect(operation).toBeUndefined();
      expect(Object.keys(doc["x-directives"])).toContain(capability.source.directive.directive.shape.type.value);
      return;
    }
    const http = capability.http;
    expect(http).toBeDefined();
    if (!http) return;
    const route = routes.find((r) => r.capability === capability);
    expect(route?.method).toBe(http.method);
    const concrete = http.path
      .split("/")
      .filter(Boolean)
      .map((part) => (part.startsWith("{") ? "x" : part));
    const match = matchRoute(http.method, concrete);
    expect(match.kind === "found" && match.route.capability.tool).toBe(capability.tool);
    expect(operation).toMatchObject({ path: http.path, method: http.method });
    expect(operation?.op.security).toEqual(securityRequirements(capability));
  });

  it("has no REST route, tool or operation without a registry entry", () => {
    for (const route of routes) expect(capabilityByTool.get(route.capability.tool)).toBe(route.capability);
    expect(new Set(catalogNames).size).toBe(catalogNames.length);
    for (const name of catalogNames) expect(capabilityByTool.has(name)).toBe(true);
    const deliberate = operations.filter((o) => (NON_CAPABILITY_PATHS as readonly string[]).includes(o.path));
    expect(deliberate.map((o) => o.path).sort()).toEqual([...NON_CAPABILITY_PATHS].sort());
    for (const { path: p, method, op } of operations) {
      if ((NON_CAPABILITY_PATHS as readonly string[]).includes(p)) continue;
      const capability = capabilityByTool.get(op.operationId);
      expect(capability?.http, `${method} ${p}`).toMatchObject({ method, path: p });
    }
    const restOperations = operations.filter((o) => !(NON_CAPABILITY_PATHS as readonly string[]).includes(o.path));
    expect(restOperations.length).toBe(routes.length);
    expect(Object.keys(doc["x-directives"]).length).toBe(directives.length);
  });

  it("has no route file under app/api beyond the catch-all, the registry's fixed paths and the listed non-capability routes", () => {
    const appDir = path.join(process.cwd(), "app");
    const files = routeFiles(path.join(appDir, "api")).map((file) =>
      path.relative(appDir, file).split(path.sep).join("/"),
    );
    // The fixed paths' files are generated from the registry and serve through the catch-all's handlers
    // (lib/surfaces/rest-route-files.ts; test/surfaces/static-routes.test.ts checks their content).
    const fixed = fixedRestPaths().map((segments) => `api/v1/${segments.join("/")}/route.ts`);
    expect(files.sort()).toEqual([...Object.keys(NON_CAPABILITY_ROUTE_FILES), ...fixed].sort());
  });

  it("names every tool so MCP, OpenAI and Anthropic all accept it", () => {
    for (const name of catalogNames) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
