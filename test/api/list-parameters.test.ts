import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type Capability, listCapabilities } from "@/registry/capabilities";
import { pageQuery } from "@/registry/pagination";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";
import { createRow } from "../support/resource-fixtures";
import { invoke } from "../surfaces/agent";

/**
 * Every list of the registry (not a hand list) takes the common page parameters, also a list
 * that is always short: limit, and after with a cursor from the list's own previous page.
 */

/** The path (and query) of a list with at least two rows for the owner. */
type Seed = (owner: TestMember) => Promise<{ path: string; input: Record<string, unknown> }>;

/** Operations whose list needs something the generic resource seed cannot make. */
const OPERATION_SEEDS: Record<string, Seed> = {
  search: async () => {
    const word = `zq${randomUUID().slice(0, 8)}`;
    await makeCatalogEntry(`${word} one`);
    await makeCatalogEntry(`${word} two`);
    return { path: `/search?q=${word}`, input: { query: word } };
  },
  webhook_endpoints_deliveries_list: async (owner) => {
    const endpoint = await api("POST", "/webhook-endpoints", {
      token: owner.token,
      body: { url: "https://example.com/hooks/pds", events: ["*"] },
    });
    for (let i = 0; i < 2; i++)
      await api("POST", `/webhook-endpoints/${endpoint.body.id}/ping`, { token: owner.token });
    return { path: `/webhook-endpoints/${endpoint.body.id}/deliveries`, input: { id: endpoint.body.id } };
  },
};

function seedFor(capability: Capability): Seed {
  const source = capability.source;
  const path = capability.http?.path ?? "";
  if (source.kind === "resource") {
    return async (owner) => {
      if (!source.resource.singleton) for (let i = 0; i < 2; i++) await createRow(source.resource, owner);
      return { path, input: {} };
    };
  }
  const seed = OPERATION_SEEDS[capability.tool];
  if (!seed) throw new Error(`${capability.tool} is a list without a seed in this test: add one`);
  return seed;
}

const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;

describe("the lists of the registry", () => {
  it("are found from the registry: every resource list and the paged operations", () => {
    const tools = listCapabilities.map((c) => c.tool);
    expect(tools).toContain("collection_types_list");
    expect(tools).toContain("search");
    expect(tools).toContain("webhook_endpoints_deliveries_list");
    expect(tools).not.toContain("collection_types_update");
  });

  it.each(listCapabilities.map((c) => [c.tool, c] as const))("%s declares after and limit", (_tool, capability) => {
    expect(capability.input.shape.after).toBe(pageQuery.after);
    expect(capability.input.shape.limit).toBe(pageQuery.limit);
  });

  it.each(
    listCapabilities.map((c) => [c.tool, c] as const),
  )("%s accepts limit and a cursor from its previous page", async (_tool, capability) => {
    const owner = await makeMember();
    const { path, input } = await seedFor(capability)(owner);
    expect((await api("GET", withQuery(path, "limit=50"), { token: owner.token })).status).toBe(200);
    const first = await api("GET", withQuery(path, "limit=1"), { token: owner.token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.has_more).toBe(true);
    const second = await api("GET", withQuery(path, `limit=1&after=${first.body.next_cursor}`), { token: owner.token });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0]).not.toEqual(first.body.data[0]);
    // The same on the tool surface, where the cursor travels as the after argument.
    const viaInvoke = await invoke(owner.token, {
      tool: capability.tool,
      input: { ...input, limit: 1, after: first.body.next_cursor },
    });
    expect(viaInvoke.status, JSON.stringify(viaInvoke.body)).toBe(200);
    expect(viaInvoke.body.result.data).toEqual(second.body.data);
    const bad = await api("GET", withQuery(path, "after=bm90LW91cnM"), { token: owner.token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe("/after");
  });
});
