import { describe, expect, it } from "vitest";
import { capabilities } from "@/registry/capabilities";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { invoke } from "../surfaces/agent";
import { mcpCall } from "../surfaces/mcp-client";

/**
 * An operation may name an input field differently on REST (registry queryAliases: GET /search?q=
 * is the tool's query). A problem's pointers name what the caller sent: the REST parameter on
 * REST, the input field on invoke and MCP.
 */
const renames = capabilities.flatMap((capability) =>
  capability.source.kind === "operation"
    ? Object.entries(capability.source.operation.queryAliases ?? {}).map(([rest, field]) => [
        capability.tool,
        rest,
        field,
      ])
    : [],
);

const pointers = (problem: { errors: { pointer: string }[] }) => problem.errors.map((e) => e.pointer);

describe("error pointers name the parameter as each surface calls it", () => {
  it("knows every rename the registry declares (a new one needs its case here)", () => {
    expect(renames).toEqual([["search", "q", "query"]]);
  });

  it("search: a missing, too long or repeated q points at /q on REST, at /query on invoke and MCP", async () => {
    const ada = await makeMember();
    const long = "a".repeat(201);
    for (const path of ["/search", `/search?q=${long}`, "/search?q=", "/search?q=a&q=b", "/search?domain=music"]) {
      const rest = await api("GET", path, { token: ada.token });
      expect(rest.status, path).toBe(422);
      expect(pointers(rest.body), path).toEqual(["/q"]);
      expect(rest.body.detail, path).not.toContain("/query");
    }
    const tooLong = await api("GET", `/search?q=${long}`, { token: ada.token });
    expect(tooLong.body.detail).toMatch(/^\/q: /);

    for (const input of [{}, { query: long }]) {
      const viaInvoke = await invoke(ada.token, { tool: "search", input });
      expect(viaInvoke.status).toBe(422);
      expect(pointers(viaInvoke.body.error)).toEqual(["/query"]);
    }
    const viaMcp = await mcpCall(ada.token, "search", { query: long });
    expect(viaMcp.isError).toBe(true);
    const text = (viaMcp.content as { text: string }[])[0]?.text ?? "";
    expect(text).toContain('"pointer":"/query"');
    expect(text).not.toContain('"pointer":"/q"');
  });

  it("search: other parameters keep their own names on REST", async () => {
    const ada = await makeMember();
    const rest = await api("GET", "/search?q=abc&domain=nope", { token: ada.token });
    expect(rest.status).toBe(422);
    expect(pointers(rest.body)).toEqual(["/domain"]);
  });
});
