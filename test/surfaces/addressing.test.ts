import { describe, expect, it } from "vitest";
import { handlers } from "@/lib/domain/handlers";
import { capabilities } from "@/registry/capabilities";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { invoke } from "./agent";
import { mcpCall } from "./mcp-client";

/**
 * Addressing is one pipeline step (lib/pipeline/address.ts), so REST, invoke and MCP answer a
 * malformed id, a repeated field and a path/body clash alike.
 */
const withoutRequestId = (problem: Record<string, unknown>) => ({ ...problem, request_id: "·" });

describe("addressing, the same on every surface", () => {
  it("answers 404 for an id that cannot exist, on REST, invoke and MCP", async () => {
    const ada = await makeMember();
    const rest = await api("GET", "/collections/not-a-uuid", { token: ada.token });
    const viaInvoke = await invoke(ada.token, { tool: "collections_get", input: { id: "not-a-uuid" } });
    const viaMcp = await mcpCall(ada.token, "collections_get", { id: "not-a-uuid" });
    expect(rest.status).toBe(404);
    expect(viaInvoke.status).toBe(404);
    expect(withoutRequestId(viaInvoke.body.error)).toEqual(withoutRequestId(rest.body));
    expect(viaMcp.isError).toBe(true);
    expect(JSON.stringify(viaMcp.content)).toContain("404 not_found");
    // Not a string at all is a type error, not an address.
    expect((await invoke(ada.token, { tool: "collections_get", input: { id: 7 } })).status).toBe(422);
  });

  it("refuses a field given twice: a repeated query parameter, a repeated body key, a repeated input key", async () => {
    const ada = await makeMember();
    const query = await api("GET", "/collections?limit=1&limit=2", { token: ada.token });
    const body = await api("POST", "/collections", {
      token: ada.token,
      rawBody: '{"name":"One","type":"music","name":"Two"}',
      headers: { "content-type": "application/json" },
    });
    const viaInvoke = await invoke(
      ada.token,
      '{"tool":"collections_create","input":{"name":"One","type":"music","name":"Two"}}',
    );
    for (const answer of [query, body]) {
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual([expect.objectContaining({ code: "duplicate_parameter" })]);
    }
    expect(query.body.errors[0].pointer).toBe("/limit");
    expect(body.body.errors[0].pointer).toBe("/name");
    expect(viaInvoke.status).toBe(422);
    expect(viaInvoke.body.error.errors).toEqual([
      expect.objectContaining({ pointer: "/name", code: "duplicate_parameter" }),
    ]);
    expect((await api("GET", "/collections", { token: ada.token })).body.data).toEqual([]);
  });

  it("takes the id from the path only: the same id in the body is refused, in the input it is the address", async () => {
    const ada = await makeMember();
    const made = await api("POST", "/collections", { token: ada.token, body: { name: "Mine", type: "music" } });
    const clash = await api("PATCH", `/collections/${made.body.id}`, {
      token: ada.token,
      body: { id: made.body.id, name: "Renamed" },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([{ pointer: "/id", code: "read_only", message: '"id" is taken from the URL.' }]);
    const viaInvoke = await invoke(ada.token, {
      tool: "collections_update",
      input: { id: made.body.id, name: "Renamed" },
    });
    expect(viaInvoke.body).toMatchObject({ ok: true, result: { name: "Renamed" } });
  });
});

describe("the handler map", () => {
  it("has exactly one handler per capability the registry declares", () => {
    expect(Object.keys(handlers).sort()).toEqual(capabilities.map((c) => c.tool).sort());
  });
});
