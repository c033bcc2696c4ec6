import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { apiHandler, handleApiWithoutNext } from "@/lib/surfaces/api-routes";
import { FIXED_ROUTES } from "@/lib/surfaces/fixed-routes";
import { fixedRestPaths, fixedRouteFile } from "@/lib/surfaces/rest-route-files";
import { makeMember } from "../support/factories";

type RouteFile = Record<string, unknown>;
const VERBS = ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"] as const;
const NOT_REST = [...FIXED_ROUTES.map((route) => fixedRouteFile(route).file), "app/api/v1/[...path]/route.ts"];

// server.ts answers these paths itself, without Next's router: it must answer what the route files
// answer on Next, and leave to Next every request those files would not get unchanged.
describe("the API routes server.ts answers itself", () => {
  it("are the very handlers the fixed route files export, and nothing those files do not export", async () => {
    const direct = FIXED_ROUTES.filter((route) => route.direct);
    expect(direct.map((route) => route.path)).toEqual([
      "/api/v1",
      "/api/v1/health",
      "/api/v1/openapi.json",
      "/api/agent/tools",
      "/api/agent/invoke",
      "/api/mcp",
    ]);
    for (const route of direct) {
      const pathname = route.path;
      const exported = (await import(`@/${fixedRouteFile(route).file.replace(/\.ts$/, "")}`)) as RouteFile;
      for (const verb of VERBS) expect(apiHandler(verb, pathname), `${verb} ${pathname}`).toBe(exported[verb]);
      // A method Next does not route (it would answer a bare 400): the route's 405, as for PUT.
      const other = await (apiHandler("PROPFIND", pathname) as (r: Request) => Promise<Response>)(
        new Request(`http://localhost${pathname}`, { method: "PROPFIND" }),
      );
      expect(other.status, pathname).toBe(405);
    }
  });

  it("cover every path the REST route files serve, with every verb they export", async () => {
    const files = fs.globSync("app/api/v1/**/route.ts").filter((file) => !NOT_REST.includes(file));
    expect(files.length).toBe(fixedRestPaths().length);
    const catchAll = (await import("@/app/api/v1/[...path]/route")) as RouteFile;
    const exported = Object.keys(catchAll).filter((name) => VERBS.includes(name as (typeof VERBS)[number]));
    expect(exported.sort()).toEqual(["DELETE", "GET", "OPTIONS", "PATCH", "POST", "PUT"]);
    for (const segments of [...fixedRestPaths(), ["collections", "col_1"], ["no-such-resource"]]) {
      for (const verb of [...exported, "HEAD", "PROPFIND"]) {
        expect(apiHandler(verb, `/api/v1/${segments.join("/")}`), `${verb} /${segments.join("/")}`).toBeTypeOf(
          "function",
        );
      }
    }
  });

  it("leave to Next what Next would rewrite, redirect or answer itself", () => {
    for (const [method, pathname] of [
      ["GET", "/api/v1/collections/"], // Next's 308 to the path without the slash
      ["GET", "/api/v1/collections/caf%C3%A9"], // percent-encoding: proxy.ts, then Next decodes
      ["GET", "/api/v1/%zz"],
      ["GET", "/api/v1/./collections"], // dot segments: Next resolves them
      ["GET", "/api/v1/collections/.."],
      ["GET", "/api/v1//collections"],
      ["GET", "/api/mcp/"], // Next's 308 to the path without the slash
      ["GET", "/api/cron/upkeep"], // cron, storage and pages stay on Next
      ["GET", "/api/agent/other"],
      ["GET", "/storage/media/a/b"],
      ["GET", "/settings/tokens"],
      ["GET", "/"],
    ] as const) {
      expect(apiHandler(method, pathname), `${method} ${pathname}`).toBeNull();
    }
  });

  it("answer a request as the route file does, through the database", async () => {
    const owner = await makeMember();
    const route = await import("@/app/api/v1/collections/route");
    const request = () =>
      new Request("http://localhost/api/v1/collections?limit=5", {
        headers: { authorization: `Bearer ${owner.token}`, origin: "https://elsewhere.example" },
      });
    const direct = await (apiHandler("GET", "/api/v1/collections") as (r: Request) => Promise<Response>)(request());
    const viaFile = await route.GET(request(), { params: Promise.resolve({}) });
    expect(direct.status).toBe(200);
    expect(await direct.json()).toEqual(await viaFile.json());
    // The same headers (CORS, cache, limits); the request id and the bucket's remainder differ by nature.
    const headers = (r: Response) =>
      [...r.headers].map(([name, value]) => [name, /^(request-id|ratelimit)$/.test(name) ? "" : value]);
    expect(headers(direct)).toEqual(headers(viaFile));
  });

  it("without Next, answer what Next would route to them: a percent-encoded path decoded, an undecodable one 400", async () => {
    const owner = await makeMember();
    const call = (path: string, method = "GET") =>
      handleApiWithoutNext(
        new Request(`http://localhost${path}`, { method, headers: { authorization: `Bearer ${owner.token}` } }),
      );
    expect((await call("/api/v1/collections")).status).toBe(200);
    // "%63ollections" is "collections" percent-encoded: Next decodes it before the catch-all sees it.
    const encoded = await call("/api/v1/%63ollections");
    expect(encoded.status).toBe(200);
    expect(await encoded.json()).toEqual({ data: [], has_more: false, next_cursor: null });
    const preflight = await call("/api/v1/%63ollections", "OPTIONS");
    expect(preflight.headers.get("allow")).toBe((await call("/api/v1/collections", "OPTIONS")).headers.get("allow"));
    expect((await call("/api/v1/%zz")).status).toBe(400);
    expect((await call("/settings/tokens")).status).toBe(404);
  });
});
