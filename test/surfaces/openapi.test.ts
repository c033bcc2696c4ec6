import { describe, expect, it } from "vitest";
import * as openapiRoute from "@/app/api/v1/openapi.json/route";
import { errorCatalog } from "@/lib/surfaces/error-catalog";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { acceptedScopes, capabilities, securityRequirements } from "@/registry/capabilities";
import { directives } from "@/registry/index";
import { checkOpenApi } from "@/scripts/openapi-check";

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const operationOf = (tool: string): Json | undefined => {
  const capability = capabilities.find((c) => c.tool === tool);
  return capability?.http ? doc.paths[capability.http.path]?.[capability.http.method.toLowerCase()] : undefined;
};

describe("OpenAPI 3.1 at GET /api/v1/openapi.json", () => {
  it("is served publicly, without a token", async () => {
    const res = await openapiRoute.GET(new Request("http://localhost/api/v1/openapi.json"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.openapi).toBe("3.1.0");
    expect(body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("validates (@readme/openapi-parser), lints clean (@redocly/cli) and generates types (openapi-typescript)", async () => {
    const results = await checkOpenApi();
    for (const result of results)
      expect({ name: result.name, ok: result.ok, output: result.ok ? "" : result.output }).toEqual({
        name: result.name,
        ok: true,
        output: "",
      });
    expect(results.map((r) => r.name)).toEqual(["@readme/openapi-parser", "@redocly/cli lint", "openapi-typescript"]);
  }, 120_000);

  it("gives each operation its scope, its problem responses and its headers", () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const capability of capabilities.filter((c) => c.http)) {
      const operation = operationOf(capability.tool) as Json;
      expect(operation.operationId).toBe(capability.tool);
      expect(operation.security).toEqual(securityRequirements(capability));
      expect(operation["x-scopes"]).toEqual(acceptedScopes(capability));
      expect(operation.description.length).toBeGreaterThan(20);
      for (const status of ["401", "403", "422", "429"]) {
        expect(operation.responses[status]?.content["application/problem+json"].schema).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
      const success = operation.responses[String(capability.successStatus)];
      expect(success.headers).toHaveProperty("RateLimit");
      expect(success.headers).toHaveProperty("Request-Id");
      expect(operation.responses["429"].headers).toHaveProperty("Retry-After");
      const params = (operation.parameters ?? []).map((p: Json) => p.$ref ?? p.name);
      if (capability.creates) expect(params).toContain("#/components/parameters/IdempotencyKey");
      if (
        capability.source.kind === "resource" &&
        capability.source.verb === "list" &&
        !capability.source.resource.singleton
      ) {
        expect(params).toEqual(
          expect.arrayContaining(["#/components/parameters/After", "#/components/parameters/Limit"]),
        );
        expect(success.headers).toHaveProperty("Link");
      }
    }
    expect(doc.components.schemas.Problem.properties.code.enum).toContain("insufficient_scope");
  });

  it("documents bodies and answers with named schemas and examples from the registry", () => {
    const create = operationOf("items_create") as Json;
    expect(create.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ItemCreate" });
    expect(create.requestBody.content["application/json"].example).toMatchObject({ tags: ["summer", "live"] });
    expect(create.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Item" });
    expect(doc.components.schemas.Item.properties.rating.examples).toEqual([5]);
    const list = operationOf("items_list") as Json;
    expect(list.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ItemPage" });
    expect(doc.info.description).toContain("## Design decisions");
    expect(doc.info.description).toContain("An item is visible exactly when its collection is.");
  });

  it("states that bodies are UTF-8, with 415 for another charset, in the reference and the error catalogue", () => {
    const create = operationOf("items_create") as Json;
    expect(create.requestBody.description).toMatch(/UTF-8.*charset=utf-8.*Any other charset is 415/);
    expect(JSON.stringify(create.responses["415"])).toContain("declares a charset other than UTF-8");
    expect(doc.info.description).toMatch(/JSON is UTF-8 \(RFC 8259\).*any other charset .* is 415/);
    expect(doc.info.description).toContain("Connection: close");
    // No content coding is read: 415 with Accept-Encoding: identity (RFC 9110 §12.5.3).
    expect(create.requestBody.description).toMatch(/Content-Encoding.*415.*Accept-Encoding: identity/);
    expect(create.responses["415"].headers["Accept-Encoding"]).toEqual({ $ref: "#/components/headers/AcceptEncoding" });
    expect(doc.components.headers.AcceptEncoding.description).toContain("identity");
    expect(doc.info.description).toMatch(/Content-Encoding.*415.*Accept-Encoding: identity/);
    const catalog = Object.fromEntries(errorCatalog().map((entry) => [entry.code, entry.when.join(" ")]));
    expect(catalog.unsupported_media_type).toContain("declares a charset other than UTF-8");
    expect(catalog.malformed_request).toContain("asterisk-form");
    expect(catalog.unsupported_media_type).toContain("Content-Encoding other than identity");
    expect(catalog.method_not_allowed).toContain("CONNECT");
    expect(catalog.method_not_allowed).toContain("TRACE");
  });

  it("carries the tool catalog and a JSON Schema for each directive type", () => {
    expect(doc["x-tools"].map((t: Json) => t.name)).toEqual(capabilities.map((c) => c.tool));
    const types = Object.keys(doc["x-directives"]);
    expect(types).toEqual(directives.map((d) => d.directive.shape.type.value));
    expect(types).toEqual(["play_media", "start_listening", "open_url"]);
    expect(doc["x-directives"].play_media).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["type", "url"]),
    });
  });
});
