import fs from "node:fs";
import { autoImplementMethods } from "next/dist/server/route-modules/app-route/helpers/auto-implement-methods.js";
import { HTTP_METHODS } from "next/dist/server/web/http.js";
import { describe, expect, it } from "vitest";

type Handler = (request: Request, context: { params: Promise<Record<string, string[]>> }) => Promise<Response>;

// The catch-all's params: a path with an id, so most methods are offered and some are not.
const CATCH_ALL = ["collections", "col_1"];

/**
 * Every route file under app/api, as Next serves it: Next's own autoImplementMethods picks the
 * handler of each method it routes, and stands in a bare 405 (no Allow, no body) for a method the
 * file does not export. Called without a token, so nothing reaches the database but health's query.
 */
describe("every route file under app/api", () => {
  const files = fs.globSync("app/api/**/route.ts").sort();

  it("is found", () => {
    expect(files).toContain("app/api/v1/health/route.ts");
    expect(files).toContain("app/api/v1/[...path]/route.ts");
  });

  it.each(files)("%s answers each method it does not offer 405, with Allow, as a problem", async (file) => {
    const routes = autoImplementMethods((await import(`@/${file.replace(/\.ts$/, "")}`)) as never) as Record<
      string,
      Handler
    >;
    const url = `http://localhost/${file.replace(/^app\//, "").replace(/\/route\.ts$/, "")}`;
    const refused: string[] = [];
    for (const method of HTTP_METHODS) {
      const handler = routes[method];
      if (!handler) throw new Error(`${method}: Next has no handler`);
      const response = await handler(new Request(url.replace("[...path]", CATCH_ALL.join("/")), { method }), {
        params: Promise.resolve({ path: CATCH_ALL, key: ["a", "b"] }),
      });
      if (response.status !== 405) continue;
      refused.push(method);
      const allow = response.headers.get("allow");
      expect(allow, `${method} ${file}: Allow`).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
      expect(allow?.split(", "), `${method} ${file}: Allow lists it`).not.toContain(method);
      expect(response.headers.get("content-type"), `${method} ${file}`).toMatch(/^application\/problem\+json/);
      if (method !== "HEAD") {
        expect(await response.json(), `${method} ${file}`).toMatchObject({ code: "method_not_allowed", status: 405 });
      }
    }
    expect(refused.length, `${file} refuses some method`).toBeGreaterThan(0);
  });
});
