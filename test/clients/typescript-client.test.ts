import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@/clients/typescript/src/index";
import { CLIENT_SCHEMA, clientSchemaSource } from "@/scripts/client-generate";
import { makeMember } from "../support/factories";
import { serveApi } from "../support/http-server";

describe("the typed client (clients/typescript)", () => {
  let server: Awaited<ReturnType<typeof serveApi>>;
  beforeAll(async () => {
    server = await serveApi();
  });
  afterAll(async () => {
    await server.close();
  });

  it("its committed types are those the registry generates today", async () => {
    // A failure here means: run `npm run client:generate` and commit clients/typescript/src/schema.d.ts.
    expect(fs.readFileSync(CLIENT_SCHEMA, "utf8")).toBe(await clientSchemaSource());
  });

  it("creates, lists and pages with the cursor against the running service", async () => {
    const member = await makeMember({ scopes: ["collections:read", "collections:write"] });
    const pds = createClient({ baseUrl: server.url, token: member.token });
    const names = ["First", "Second", "Third"];
    for (const name of names) {
      const { data, error, response } = await pds.POST("/collections", { body: { name, type: "music" } });
      expect(error).toBeUndefined();
      expect(response.status).toBe(201);
      expect(data?.name).toBe(name);
      expect(data?.visibility).toBe("private");
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const { data, error, response } = await pds.GET("/collections", { params: { query: { limit: 2, after } } });
      expect(error).toBeUndefined();
      if (!data) throw new Error("no page");
      expect(response.headers.get("ratelimit")).toBeTruthy();
      seen.push(...data.data.map((collection) => collection.name));
      if (!data.has_more) break;
      expect(response.headers.get("link")).toContain('rel="next"');
      after = data.next_cursor ?? undefined;
    }
    // Newest first, each exactly once across pages.
    expect(seen).toEqual([...names].reverse());
  });

  it("answers a problem+json error as a typed error, and accepts the API base as baseUrl too", async () => {
    const member = await makeMember({ scopes: ["collections:read"] });
    const pds = createClient({ baseUrl: `${server.url}/api/v1/`, token: member.token });
    const refused = await pds.POST("/collections", { body: { name: "Nope", type: "music" } });
    expect(refused.data).toBeUndefined();
    expect(refused.response.status).toBe(403);
    expect(refused.error?.code).toBe("insufficient_scope");
    expect(refused.error?.type).toBe("/docs/errors#insufficient_scope");
    const missing = await pds.GET("/collections/{id}", {
      params: { path: { id: "00000000-0000-4000-8000-000000000000" } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("not_found");
    const invalid = await pds.GET("/collections", { params: { query: { limit: 500 } } });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error?.errors?.[0]?.pointer).toBe("/limit");
  });

  it("a wrong token is 401 with the Bearer challenge", async () => {
    const pds = createClient({ baseUrl: server.url, token: "pds_not_a_token" });
    const { error, response } = await pds.GET("/collections");
    expect(response.status).toBe(401);
    expect(error?.code).toBe("unauthorized");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });
});
