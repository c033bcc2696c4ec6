import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { serveApi } from "../support/http-server";

let server: Awaited<ReturnType<typeof serveApi>>;
beforeAll(async () => {
  server = await serveApi();
});
afterAll(() => server.close());

describe("GET /api/v1, the API's base path", () => {
  it("answers a small public index that points to the reference and the docs", async () => {
    const response = await fetch(`${server.url}/api/v1`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    // RFC 8631: where a client finds the description and the documentation.
    expect(response.headers.get("link")).toBe(
      '</api/v1/openapi.json>; rel="service-desc"; type="application/openapi+json", </docs>; rel="service-doc"',
    );
    const index = await response.json();
    expect(index).toEqual({
      openapi: "/api/v1/openapi.json",
      docs: "/docs",
      health: "/api/v1/health",
      tools: "/api/agent/tools",
      mcp: "/api/mcp",
    });
    for (const path of [index.openapi, index.health])
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
    expect((await fetch(`${server.url}/api/v1`, { method: "HEAD" })).status).toBe(200);
  });

  it("refuses other methods 405 with Allow: GET", async () => {
    const response = await fetch(`${server.url}/api/v1`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    expect(await response.json()).toMatchObject({ code: "method_not_allowed" });
  });

  it("is in the reference, at its own server so the URL has no trailing slash", () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, any>> };
    const item = doc.paths["/v1"];
    expect(item?.servers).toEqual([{ url: "/api", description: expect.any(String) }]);
    expect(item?.get).toMatchObject({ operationId: "api_index", security: [], tags: ["service"] });
  });
});
