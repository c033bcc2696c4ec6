import { describe, expect, it } from "vitest";
import { capabilityByTool } from "@/registry/capabilities";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";
import { invoke } from "../surfaces/agent";
import { mcpCall } from "../surfaces/mcp-client";

/**
 * A row the member can read but not change is a refused write (403 with the store's reason), not
 * a missing row: the same token's GET of the id answers 200. A row it cannot read stays 404.
 */
async function publicCollectionWithItem(owner: TestMember, visibility = "public") {
  const collection = await api("POST", "/collections", {
    token: owner.token,
    body: { name: "Shared", type: "music", visibility },
  });
  const item = await api("POST", "/items", {
    token: owner.token,
    body: { collection_id: collection.body.id, song_id: await makeCatalogEntry() },
  });
  return { collection: collection.body.id as string, item: item.body.id as string };
}

function expectNotOwner(response: { status: number; body: any }, singular: string, role: string) {
  expect(response.status).toBe(403);
  expect(response.body).toMatchObject({
    code: "write_refused",
    reason: { sqlstate: "42501", code: "not_owner", message: expect.stringContaining(`only its ${role}`) },
  });
  expect(response.body.reason.message).toContain(`this ${singular} belongs to another member`);
}

describe("a write to a row the member can read but not change", () => {
  it("is 403 not_owner on another member's public collection and its items, and changes nothing", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await publicCollectionWithItem(ada);
    expect((await api("GET", `/collections/${ids.collection}`, { token: bob.token })).status).toBe(200);
    expectNotOwner(
      await api("PATCH", `/collections/${ids.collection}`, { token: bob.token, body: { name: "mine" } }),
      "collection",
      "owner",
    );
    expectNotOwner(await api("DELETE", `/collections/${ids.collection}`, { token: bob.token }), "collection", "owner");
    expectNotOwner(
      await api("PATCH", `/items/${ids.item}`, { token: bob.token, body: { note: "mine" } }),
      "item",
      "owner",
    );
    expectNotOwner(await api("DELETE", `/items/${ids.item}`, { token: bob.token }), "item", "owner");
    const after = await api("GET", `/collections/${ids.collection}`, { token: ada.token });
    expect(after.body.name).toBe("Shared");
    expect((await api("GET", `/items/${ids.item}`, { token: ada.token })).status).toBe(200);
  });

  it("is 403 on another member's channel, an empty change included", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const channel = await api("POST", "/channels", {
      token: ada.token,
      body: { handle: `c_${ada.id.slice(0, 8)}`, title: "Ada's" },
    });
    const path = `/channels/${channel.body.id}`;
    expect((await api("GET", path, { token: bob.token })).status).toBe(200);
    expectNotOwner(await api("PATCH", path, { token: bob.token, body: { title: "Bob's" } }), "channel", "owner");
    expectNotOwner(await api("PATCH", path, { token: bob.token, body: {} }), "channel", "owner");
    expect((await api("GET", path, { token: ada.token })).body.title).toBe("Ada's");
  });

  it("is 403 on a follow of which the member is the followee; the follower still deletes it", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const follow = await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } });
    const listed = await api("GET", "/follows?direction=followers", { token: bob.token });
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([follow.body.id]);
    expectNotOwner(await api("DELETE", `/follows/${follow.body.id}`, { token: bob.token }), "follow", "follower");
    expect((await api("DELETE", `/follows/${follow.body.id}`, { token: ada.token })).status).toBe(204);
  });

  it("stays 404 on a row the member cannot read at all", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await publicCollectionWithItem(ada, "private");
    for (const [method, path, body] of [
      ["PATCH", `/collections/${ids.collection}`, { name: "x" }],
      ["DELETE", `/collections/${ids.collection}`, undefined],
      ["PATCH", `/items/${ids.item}`, { note: "x" }],
      ["DELETE", `/items/${ids.item}`, undefined],
    ] as const) {
      const response = await api(method, path, { token: bob.token, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code).toBe("not_found");
    }
    const stranger = await makeMember();
    const follow = await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } });
    expect((await api("DELETE", `/follows/${follow.body.id}`, { token: stranger.token })).status).toBe(404);
  });

  it("is the same refusal on invoke and MCP", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await publicCollectionWithItem(ada);
    const rest = await api("PATCH", `/collections/${ids.collection}`, { token: bob.token, body: { name: "mine" } });
    const viaInvoke = await invoke(bob.token, {
      tool: "collections_update",
      input: { id: ids.collection, name: "mine" },
    });
    expect(viaInvoke.status).toBe(403);
    expect({ ...viaInvoke.body.error, request_id: "·" }).toEqual({ ...rest.body, request_id: "·" });
    const viaMcp = await mcpCall(bob.token, "collections_delete", { id: ids.collection });
    expect(viaMcp.isError).toBe(true);
    expect(JSON.stringify(viaMcp.content)).toContain("403 write_refused");
    expect(JSON.stringify(viaMcp.content)).toContain("not_owner");
  });

  it("is documented as 403 on the update and delete of every resource another member can read", async () => {
    const { buildOpenApiDocument } = await import("@/lib/surfaces/openapi");
    const document = buildOpenApiDocument() as any;
    for (const tool of [
      "collections_update",
      "collections_delete",
      "items_update",
      "items_delete",
      "channels_update",
      "follows_delete",
    ]) {
      const http = capabilityByTool.get(tool)?.http;
      if (!http) throw new Error(tool);
      const operation = document.paths[http.path][http.method.toLowerCase()];
      expect(JSON.stringify(operation.responses["403"]), tool).toContain("not_owner");
    }
    const todos = capabilityByTool.get("todos_update")?.http;
    const operation = document.paths[String(todos?.path)].patch;
    expect(JSON.stringify(operation.responses["403"])).not.toContain("not_owner");
  });
});

describe("the documented 403 not_owner names a read the service answers", () => {
  const described = async (tool: string): Promise<string> => {
    const { buildOpenApiDocument } = await import("@/lib/surfaces/openapi");
    const http = capabilityByTool.get(tool)?.http;
    if (!http) throw new Error(tool);
    return (buildOpenApiDocument() as any).paths[http.path][http.method.toLowerCase()].responses["403"].description;
  };

  it("a GET of the id where the resource has one", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await publicCollectionWithItem(ada);
    expect(await described("items_delete")).toContain("a GET of the same id answers 200");
    expect((await api("GET", `/items/${ids.item}`, { token: bob.token })).status).toBe(200);
  });

  it("follows, which have no GET by id: the list the followee reads it in", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const follow = await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } });
    expect((await api("GET", `/follows/${follow.body.id}`, { token: bob.token })).status).toBe(405);
    const text = await described("follows_delete");
    expect(text).not.toContain("GET of the same id");
    const read = /it is listed by GET (\S+?)[,;)]? /.exec(text)?.[1];
    expect(read, text).toBeDefined();
    const listed = await api("GET", String(read), { token: bob.token });
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([follow.body.id]);
  });
});
