import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { capabilities } from "@/registry/capabilities";
import { READ_ONLY_SCOPES, SCOPES } from "@/registry/scopes";
import { api } from "../support/api";
import { makeMember, tokenFor } from "../support/factories";
import { getTools } from "./agent";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("GET /api/agent/tools", () => {
  // The first file in a worker opens (and migrates) its database; keep that out of the test timeouts.
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("lists every capability for a token with all scopes, in registry order, with full definitions", async () => {
    const ada = await makeMember();
    const res = await getTools(ada.token);
    expect(res.status).toBe(200);
    expect(res.body.format).toBe("pds");
    // Reading the catalog is a rate-limited call like any other.
    expect(res.headers.get("ratelimit")).toMatch(/^"token";r=\d+/);
    const names = res.body.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(capabilities.map((c) => c.tool));
    for (const tool of res.body.tools) {
      expect(tool.name).toMatch(NAME);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.$schema).toBeUndefined();
      expect(tool.outputSchema).toBeTypeOf("object");
      expect(SCOPES).toContain(tool.scope);
      expect(tool.description.length).toBeGreaterThan(10);
    }
    const del = res.body.tools.find((t: { name: string }) => t.name === "items_delete");
    expect(del.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    const list = res.body.tools.find((t: { name: string }) => t.name === "items_list");
    expect(list.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(list.inputSchema.properties.limit).toMatchObject({ type: "integer", maximum: 200 });
    expect((await getTools(ada.token)).body).toEqual(res.body);
  });

  it("lists only the tools the token's scopes allow", async () => {
    const ada = await makeMember();
    const readOnly = await getTools(await tokenFor(ada.id, READ_ONLY_SCOPES));
    expect(readOnly.body.tools.length).toBeGreaterThan(0);
    for (const tool of readOnly.body.tools) expect(tool.scope).toMatch(/:read$/);
    // uploads_create takes the write scope of what the upload is for, so any of those lists it.
    const messages = await getTools(await tokenFor(ada.id, ["messages:write"]));
    const upload = messages.body.tools.find((t: { name: string }) => t.name === "uploads_create");
    expect(upload?.scopes).toEqual(expect.arrayContaining(["profile:write", "messages:write", "items:write"]));
    const todos = await getTools(await tokenFor(ada.id, ["todos:write"]));
    // activity_undo: any write scope of what it can restore lists it (the write undone needs its own).
    expect(todos.body.tools.map((t: { name: string }) => t.name)).toEqual([
      "todos_create",
      "todos_update",
      "todos_delete",
      "activity_undo",
    ]);
  });

  it("refuses a missing or bad token and an unknown format", async () => {
    const ada = await makeMember();
    const anonymous = await getTools(undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await getTools("pds_nope")).status).toBe(401);
    const bad = await getTools(ada.token, "?format=soap");
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe("/format");
    expect((await getTools(ada.token, "?page=2")).status).toBe(422);
  });

  it("refuses a query parameter sent twice with 422 duplicate_parameter, as REST does", async () => {
    const ada = await makeMember();
    const twice = await getTools(ada.token, "?format=openai&format=mcp");
    expect(twice.status).toBe(422);
    const rest = await api("GET", "/collections?limit=5&limit=6", { token: ada.token });
    expect(rest.status).toBe(422);
    // The same problem, but for the name.
    const { request_id: _, ...refusal } = JSON.parse(JSON.stringify(rest.body).replaceAll("limit", "format"));
    expect(twice.body).toMatchObject(refusal);
    expect(twice.body.errors).toEqual([{ pointer: "/format", code: "duplicate_parameter", message: "Send it once." }]);
  });

  it("speaks OpenAI strict mode: every property required, optional ones nullable, no extra properties", async () => {
    const ada = await makeMember();
    const res = await getTools(ada.token, "?format=openai");
    const create = res.body.tools.find((t: { name: string }) => t.name === "items_create");
    expect(Object.keys(create)).toEqual(["type", "name", "description", "parameters", "strict"]);
    expect(create).toMatchObject({ type: "function", strict: true });
    const { parameters } = create;
    expect(parameters.additionalProperties).toBe(false);
    expect(parameters.required).toEqual(Object.keys(parameters.properties));
    expect(parameters.properties.collection_id.type).toBe("string");
    expect(parameters.properties.note.type).toEqual(["string", "null"]);
    expect(parameters.properties.note.maxLength).toBeUndefined();
    expect(parameters.properties.tags.type).toEqual(["array", "null"]);
    const walk = (schema: any): void => {
      if (schema?.type === "object" || (Array.isArray(schema?.type) && schema.type.includes("object"))) {
        expect(schema.additionalProperties).toBe(false);
        expect(schema.required).toEqual(Object.keys(schema.properties));
      }
      for (const value of Object.values(schema ?? {})) if (value && typeof value === "object") walk(value);
    };
    for (const tool of res.body.tools) walk(tool.parameters);
    // Only keywords strict mode supports survive the conversion.
    const allowed = new Set([
      ...["type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "description"],
      ...["format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
      ...["minItems", "maxItems"],
    ]);
    const keywords = (schema: any): string[] =>
      Object.entries(schema).flatMap(([key, value]) => [
        key,
        ...(key === "properties" ? Object.values(value as object).flatMap(keywords) : []),
        ...(key === "items" ? keywords(value) : []),
        ...(key === "anyOf" ? (value as object[]).flatMap(keywords) : []),
      ]);
    for (const tool of res.body.tools) {
      for (const key of keywords(tool.parameters)) expect(allowed, `${tool.name}: ${key}`).toContain(key);
    }
    const chat = await getTools(ada.token, "?format=openai-chat");
    expect(chat.body.tools[0]).toMatchObject({
      type: "function",
      function: { name: "collections_list", strict: true },
    });
  });

  it("speaks Anthropic and MCP definition shapes", async () => {
    const ada = await makeMember();
    const anthropic = (await getTools(ada.token, "?format=anthropic")).body.tools;
    expect(Object.keys(anthropic[0])).toEqual(["name", "description", "input_schema"]);
    expect(anthropic[0].input_schema.type).toBe("object");
    const mcp = (await getTools(ada.token, "?format=mcp")).body.tools;
    expect(Object.keys(mcp[0])).toEqual(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]);
    for (const tool of mcp) expect(tool.outputSchema.type).toBe("object");
    const del = mcp.find((t: { name: string }) => t.name === "goals_delete");
    expect(del.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: "null" } },
      required: ["result"],
      additionalProperties: false,
    });
  });
});
