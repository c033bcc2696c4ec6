import fs from "node:fs";
import { describe, expect, it } from "vitest";
import * as catchAll from "@/app/api/v1/[...path]/route";
import { ROUTE_METHODS } from "@/lib/http/method-not-allowed";
import { FIXED_ROUTES } from "@/lib/surfaces/fixed-routes";
import {
  FIXED_ROUTE_MARK,
  fixedRestPaths,
  fixedRouteFile,
  GENERATED_MARK,
  REST_ROUTE_ROOT,
  routeFile,
} from "@/lib/surfaces/rest-route-files";
import { makeMember } from "../support/factories";

type Handler = (request: Request, context: { params: Promise<{ path?: string[] }> }) => Promise<Response>;

// The registry's fixed REST paths have route files of their own (lib/surfaces/rest-route-files.ts).
describe("route files of the fixed REST paths", () => {
  it("exist for every fixed path of the registry, as generated, and for no other", () => {
    const expected = fixedRestPaths().map(routeFile);
    expect(expected.map((e) => e.file)).toContain("app/api/v1/collections/route.ts");
    for (const { file, source } of expected) {
      expect(fs.existsSync(file), `${file} is missing: run node scripts/build-rest-routes.ts`).toBe(true);
      expect(fs.readFileSync(file, "utf8"), `${file} is stale: run node scripts/build-rest-routes.ts`).toBe(source);
    }
    const generated = fs
      .globSync(`${REST_ROUTE_ROOT}/**/route.ts`)
      .filter((file) => fs.readFileSync(file, "utf8").startsWith(GENERATED_MARK));
    expect(generated.sort()).toEqual(expected.map((e) => e.file).sort());
  });

  it("exist for every route outside the registry (lib/surfaces/fixed-routes.ts), as generated, and for no other", async () => {
    const expected = FIXED_ROUTES.map(fixedRouteFile);
    for (const { file, source } of expected) {
      expect(fs.existsSync(file) && fs.readFileSync(file, "utf8"), `${file} is stale: run npm run generate`).toBe(
        source,
      );
    }
    const generated = fs
      .globSync("app/**/route.ts")
      .filter((file) => fs.readFileSync(file, "utf8").startsWith(FIXED_ROUTE_MARK));
    expect(generated.sort()).toEqual(expected.map((e) => e.file).sort());
    // Each exports every method Next routes, and they are the handlers of the module named.
    for (const route of FIXED_ROUTES) {
      const file = (await import(`@/${fixedRouteFile(route).file.replace(/\.ts$/, "")}`)) as Record<string, unknown>;
      const methods =
        ((await import(`@/${route.module}`)) as Record<string, Record<string, unknown>>)[route.name] ?? {};
      expect(Object.keys(methods).sort(), route.path).toEqual([...ROUTE_METHODS].sort());
      for (const method of ROUTE_METHODS) expect(file[method], `${method} ${route.path}`).toBe(methods[method]);
    }
  });

  it("answer as the catch-all does, through the same handlers", async () => {
    const owner = await makeMember();
    for (const segments of fixedRestPaths()) {
      const own = (await import(`@/app/api/v1/${segments.join("/")}/route`)) as Record<string, unknown>;
      const url = `http://localhost/api/v1/${segments.join("/")}`;
      const call = async (routes: Record<string, unknown>, method: string, token?: string) => {
        const headers = token ? { authorization: `Bearer ${token}` } : undefined;
        const handler = routes[method] as Handler | undefined;
        if (!handler) throw new Error(`no ${method}`);
        const response = await handler(new Request(url, { method, headers }), {
          params: Promise.resolve({ path: [...segments] }),
        });
        return { status: response.status, allow: response.headers.get("allow"), body: await response.text() };
      };
      const strip = (r: { status: number; allow: string | null; body: string }) => ({
        ...r,
        body: r.body.replace(/"request_id":"[^"]+"/, ""),
      });
      for (const method of ["OPTIONS", "PUT"]) {
        expect(strip(await call(own, method)), `${method} /${segments.join("/")}`).toEqual(
          strip(await call(catchAll, method)),
        );
      }
      if (segments.join("/") === "collections") {
        const listed = await call(own, "GET", owner.token);
        expect(listed.status).toBe(200);
        expect(JSON.parse(listed.body)).toEqual({ data: [], has_more: false, next_cursor: null });
      }
    }
  });
});
