import { randomUUID } from "node:crypto";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { exampleOf } from "@/lib/surfaces/openapi-json";
import { restNameOf } from "@/lib/surfaces/openapi-operations";
import { mcpOutputSchema } from "@/lib/surfaces/tools";
import { capabilitySchemas } from "@/lib/surfaces/tools-json-schema";
import { type Capability, capabilities } from "@/registry/capabilities";
import type { ResourceSpec } from "@/registry/define";
import { type ApiResponse, api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember, tokenFor } from "../support/factories";
import { createRow, validCreateBody } from "../support/resource-fixtures";
import { type AgentResponse, invoke } from "./agent";

/**
 * Invoke equals REST, tool by tool: the same call over both surfaces answers the same status and
 * body (a REST 204 is invoke's 200 with result null). Creates make different ids, so they are
 * compared by shape. Each tool gets a realistic call built from the registry and the factories;
 * a tool declared later without a case here still gets the call built from its input schema.
 */
type Input = Record<string, unknown>;
interface Case {
  rest: Input;
  invoke: Input;
  compare: "exact" | "shape";
  member?: TestMember;
}

function restCall(capability: Capability, input: Input, token: string): Promise<ApiResponse> {
  const http = capability.http;
  if (!http) throw new Error(`${capability.tool} has no REST route`);
  const path = http.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name])));
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !http.pathParams.includes(key)));
  if (http.method === "GET" || http.method === "DELETE") {
    // REST may name an argument differently (search: query on the tool surface, q on REST).
    const query = new URLSearchParams(
      Object.entries(rest).map(([key, value]) => [restNameOf(capability, key), String(value)]),
    );
    return api(http.method, query.size ? `${path}?${query}` : path, { token });
  }
  return api(http.method, path, { token, body: rest });
}

const UPDATE_PREFERENCE = ["name", "title", "bio", "display_name", "description", "note"];

function updateBody(resource: ResourceSpec): Input {
  if (resource.updateInput) return { [Object.keys(resource.updateInput.shape)[0] ?? ""]: true };
  const name =
    UPDATE_PREFERENCE.find((key) => resource.fields[key] && !resource.fields[key]?.readOnly) ??
    Object.keys(resource.fields).find((key) => !resource.fields[key]?.readOnly && !key.endsWith("_id"));
  const field = name ? resource.fields[name] : undefined;
  if (!name || !field) throw new Error(`no updatable field on ${resource.name}`);
  return { [name]: typeof field.example === "string" ? `${field.example} (edited)` : field.example };
}

async function resourceCase(capability: Capability, resource: ResourceSpec, member: TestMember): Promise<Case> {
  const verb = capability.source.kind === "resource" ? capability.source.verb : "get";
  const id = async () => (resource.singleton ? {} : { id: await createRow(resource, member) });
  switch (verb) {
    case "list":
      if (resource.verbs.includes("create")) await createRow(resource, member);
      return {
        rest: resource.singleton ? {} : { limit: 10 },
        invoke: resource.singleton ? {} : { limit: 10 },
        compare: "exact",
      };
    case "get": {
      const input = await id();
      return { rest: input, invoke: input, compare: "exact" };
    }
    case "create":
      return {
        rest: await validCreateBody(resource, member),
        invoke: await validCreateBody(resource, member),
        compare: "shape",
      };
    case "update": {
      const input = { ...(await id()), ...updateBody(resource) };
      return { rest: input, invoke: input, compare: "exact" };
    }
    case "delete":
      return { rest: await id(), invoke: await id(), compare: "exact" };
  }
}

const OPERATION_CASES: Record<string, (member: TestMember) => Promise<Case>> = {
  streaks_check_in: async (member) => {
    const streak = capabilities.find((c) => c.tool === "streaks_create")?.source;
    if (streak?.kind !== "resource") throw new Error("streaks_create missing");
    return {
      rest: { id: await createRow(streak.resource, member) },
      invoke: { id: await createRow(streak.resource, member) },
      compare: "shape",
    };
  },
  search: async () => {
    const title = `Parity ${randomUUID().slice(0, 8)}`;
    await makeCatalogEntry(title);
    return { rest: { query: title }, invoke: { query: title }, compare: "exact" };
  },
  resolve: async (member) => {
    const input = { input: "https://open.spotify.com/track/4u7EnebtmKWzUH433cf5Qv" };
    // The first resolve stores the entry; after it, both surfaces read the same stored entry.
    await api("POST", "/resolve", { token: member.token, body: input });
    return { rest: input, invoke: input, compare: "exact" };
  },
  // The same documents; exported_at and the signed links' expiry differ between two calls.
  export: async () => ({ rest: {}, invoke: {}, compare: "shape" }),
  uploads_create: async () => {
    const input = { purpose: "avatar", content_type: "image/png", size: 2048 };
    return { rest: input, invoke: input, compare: "shape", member: await makeMember({ plan: "pro" }) };
  },
};

async function caseFor(capability: Capability, member: TestMember): Promise<Case> {
  const special = OPERATION_CASES[capability.tool];
  if (special) return special(member);
  if (capability.source.kind === "resource") return resourceCase(capability, capability.source.resource, member);
  const input = exampleOf(capabilitySchemas(capability).input) as Input;
  return { rest: input, invoke: input, compare: capability.creates ? "shape" : "exact" };
}

const shapeOf = (value: unknown): unknown => {
  if (Array.isArray(value)) return [...new Set(value.map((v) => JSON.stringify(shapeOf(v))))];
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]));
  }
  return value === null ? "null" : typeof value;
};
const withoutRequestId = (problem: Record<string, unknown>) => ({ ...problem, request_id: "·" });

function expectSameAnswer(rest: ApiResponse, viaInvoke: AgentResponse, compare: "exact" | "shape") {
  expect(viaInvoke.status).toBe(rest.status === 204 ? 200 : rest.status);
  if (rest.status >= 400) {
    expect(viaInvoke.body.ok).toBe(false);
    expect(withoutRequestId(viaInvoke.body.error)).toEqual(withoutRequestId(rest.body));
    return;
  }
  expect(viaInvoke.body.ok).toBe(true);
  if (rest.status === 204) expect(viaInvoke.body.result).toBeNull();
  else if (compare === "exact") expect(viaInvoke.body.result).toEqual(rest.body);
  else expect(shapeOf(viaInvoke.body.result)).toEqual(shapeOf(rest.body));
}

describe("invoke equals REST, for every tool", () => {
  // The first file in a worker opens (and migrates) its database; keep that out of the test timeouts.
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  for (const capability of capabilities.filter((c) => c.http)) {
    it(`${capability.tool}: same status and body`, async () => {
      const owner = await makeMember();
      const call = await caseFor(capability, owner);
      const member = call.member ?? owner;
      const rest = await restCall(capability, call.rest, member.token);
      expect(rest.status).toBeLessThan(500);
      // What comes back matches the declared outputSchema, checked the way the MCP SDK client checks
      // structuredContent (its own AJV validator), so no MCP client refuses a real answer.
      if (rest.status < 300) {
        const { schema, wrapped } = mcpOutputSchema(capability);
        const answer = rest.status === 204 ? null : rest.body;
        const verdict = new AjvJsonSchemaValidator().getValidator(schema)(wrapped ? { result: answer } : answer);
        expect(verdict.errorMessage).toBeUndefined();
      }
      expectSameAnswer(rest, await invoke(member.token, { tool: capability.tool, input: call.invoke }), call.compare);
      // The refusals match too: an unknown field, and a token without the tool's scope.
      const extra = { ...call.invoke, not_a_field: 1 };
      expectSameAnswer(
        await restCall(capability, { ...call.rest, not_a_field: 1 }, member.token),
        await invoke(member.token, { tool: capability.tool, input: extra }),
        "exact",
      );
      const other = capability.scope.startsWith("todos:") ? "goals:read" : "todos:read";
      const narrow = await tokenFor(member.id, [other]);
      // Refused, except the export, which any read scope runs (answering what that scope allows).
      expectSameAnswer(
        await restCall(capability, call.rest, narrow),
        await invoke(narrow, { tool: capability.tool, input: call.invoke }),
        call.compare,
      );
    });
  }

  for (const capability of capabilities.filter((c) => !c.http)) {
    it(`${capability.tool}: a browser directive, answered by invoke only (no REST route)`, async () => {
      const member = await makeMember();
      const inputs: Record<string, Input> = {
        play_song: { song_id: await makeCatalogEntry() },
        listen: { lang: "en-US" },
        open_url: { url: "https://example.org/" },
      };
      const input = inputs[capability.tool] ?? (exampleOf(capabilitySchemas(capability).input) as Input);
      const answer = await invoke(member.token, { tool: capability.tool, input });
      expect(answer.status).toBe(200);
      expect(capability.output.safeParse(answer.body.directive).success).toBe(true);
      expect((await api("POST", `/${capability.tool}`, { token: member.token, body: input })).status).toBe(404);
    });
  }
});
