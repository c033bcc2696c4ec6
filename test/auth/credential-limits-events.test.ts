import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { PULLING_TEST_TIMEOUT_MS, pullEvents } from "../support/event-log";
import type { TestMember } from "../support/factories";
import { getTools, invoke } from "../surfaces/agent";
import { limitedToOneOfTwo } from "./credential-limits-support";

const KINDS = "collection.created,collection.updated,item.created,item.updated,item.deleted,todo.created";

/** The collection or item each pulled event is about: its record id, or an item's collection. */
const about = (entries: { type: string; data: Record<string, any> }[]) =>
  entries.map((event) => `${event.type} ${event.type.startsWith("item.") ? event.data.collection_id : event.data.id}`);

/**
 * The event log read by a collection-limited token, through the real path: RLS leaves out every
 * collection and item event outside its list, as the tables do, and the token cannot point a
 * webhook endpoint (which receives every collection's events) anywhere, nor read the member's.
 */
describe("a collection-limited token and the member's events", { timeout: PULLING_TEST_TIMEOUT_MS }, () => {
  let ada: TestMember;
  let allowed: { collectionId: string; itemId: string };
  let other: { collectionId: string; itemId: string };
  let token: string;

  beforeAll(async () => {
    ({ ada, allowed, other, token } = await limitedToOneOfTwo("private", async (owner, hidden) => {
      await api("PATCH", `/collections/${hidden.collectionId}`, { token: owner.token, body: { name: "Still secret" } });
      await api("PATCH", `/items/${hidden.itemId}`, { token: owner.token, body: { note: "hidden" } });
      await api("DELETE", `/items/${hidden.itemId}`, { token: owner.token });
      await api("POST", "/todos", { token: owner.token, body: { title: "outside the limit" } });
    }));
  }, 180_000);

  it("GET /events answers only its collections' and items' events, and the kinds the limit does not cover", async () => {
    const all = about((await pullEvents(api, ada.token, { types: KINDS, limit: 200, count: 7 })).entries);
    expect(all).toEqual(
      expect.arrayContaining([`collection.updated ${other.collectionId}`, `item.deleted ${other.collectionId}`]),
    );
    const seen = (await pullEvents(api, token, { types: KINDS, limit: 200, count: 3 })).entries;
    expect(about(seen)).toEqual([
      `collection.created ${allowed.collectionId}`,
      `item.created ${allowed.collectionId}`,
      `todo.created ${seen.at(-1)?.data.id}`,
    ]);
  });

  it("the same through a tool", async () => {
    const answer = await invoke(token, { tool: "events_list", input: { types: KINDS, limit: 200 } });
    expect(answer.status).toBe(200);
    const ids = JSON.stringify(answer.body.result.data);
    expect(ids).not.toContain(other.collectionId);
    expect(ids).toContain(allowed.collectionId);
  });

  it("cannot use webhook endpoints (403 collection_limited): not create one, nor read the member's, nor its delivery log", async () => {
    const created = await api("POST", "/webhook-endpoints", {
      token,
      body: { url: "https://hooks.example.com/in", events: ["*"] },
    });
    expect(created.status).toBe(403);
    expect(created.body.code).toBe("collection_limited");
    expect(created.body.detail).toMatch(/every collection/);
    expect((await api("GET", "/webhook-endpoints", { token: ada.token })).body.data).toEqual([]);
    const members = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: "https://hooks.example.com/member", events: ["item.updated"] },
    });
    expect(members.status).toBe(201);
    for (const path of ["/webhook-endpoints", `/webhook-endpoints/${members.body.id}/deliveries`]) {
      const read = await api("GET", path, { token });
      expect(read.status, path).toBe(403);
      expect(read.body.code, path).toBe("collection_limited");
    }
    const names = (await getTools(token)).body.tools.map((t: { name: string }) => t.name);
    expect(names.filter((name: string) => name.startsWith("webhook_endpoints_"))).toEqual([]);
    expect(names).toContain("events_list");
  });
});
