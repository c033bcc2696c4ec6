import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { runUpkeep } from "@/lib/upkeep/run";
import { UPKEEP_TASKS } from "@/lib/upkeep/tasks";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember, tokenFor } from "../support/factories";
import { sqlAsMember, sqlAsService } from "../support/store";
import { invoke } from "../surfaces/agent";
import { webhookScope } from "../support/webhook-scope";
import { type EventEntry as Entry, PULLING_TEST_TIMEOUT_MS, pullEvents } from "../support/event-log";

process.env.WEBHOOKS_ALLOW_HTTP = "1";

const { receiver, endpointFor, drain } = webhookScope();

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await api(method, path, { token, body });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

const pull = (token: string, options?: Parameters<typeof pullEvents>[2]) => pullEvents(api, token, options);

/** Writes through the API that fire one event each, in this order; answers the types expected. */
async function someWrites(member: TestMember) {
  const collection = await call(member.token, "POST", "/collections", { name: "c", type: "music" });
  const item = await call(member.token, "POST", "/items", {
    collection_id: collection.id,
    song_id: await makeCatalogEntry(),
  });
  await call(member.token, "PATCH", `/items/${item.id}`, { rating: 4 });
  await call(member.token, "PATCH", `/items/${item.id}`, { rating: 5 });
  await call(member.token, "POST", "/todos", { title: "t" });
  await call(member.token, "DELETE", `/items/${item.id}`);
  return {
    collection,
    item,
    types: ["collection.created", "item.created", "item.updated", "item.updated", "todo.created", "item.deleted"],
  };
}

describe("the event log (GET /events)", { timeout: PULLING_TEST_TIMEOUT_MS }, () => {
  it("pages in order with the cursor, and matches what a webhook receiver got, id for id and byte for byte", async () => {
    const ada = await makeMember();
    const r = await receiver();
    await endpointFor(ada, r.url);
    const { types, item } = await someWrites(ada);
    await drain();
    await r.waitFor(types.length);

    const { entries, cursor, pages } = await pull(ada.token, { limit: 2, count: types.length });
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(entries.map((entry) => entry.type)).toEqual(types);
    const received = new Map(r.received.map((one) => [one.json.id, one]));
    expect(received.size).toBe(types.length);
    for (const entry of entries) {
      const delivered = received.get(entry.id);
      expect(delivered?.headers["webhook-id"]).toBe(entry.id);
      expect(JSON.stringify(entry)).toBe(delivered?.body);
    }
    expect(entries[1]?.data).toEqual(item);

    // The cursor at the end of the log is where later events start: only the new one comes.
    const todo = await call(ada.token, "POST", "/todos", { title: "later" });
    const next = await pull(ada.token, { after: cursor, count: 1 });
    expect(next.entries.map((entry) => [entry.type, entry.data.id])).toEqual([["todo.created", todo.id]]);
    const empty = await api("GET", `/events?after=${next.cursor}`, { token: ada.token });
    expect(empty.body).toEqual({ data: [], has_more: false, next_cursor: next.cursor });

    const forged = await api("GET", "/events?after=bm90LWEtY3Vyc29y", { token: ada.token });
    expect(forged.status).toBe(422);
  });

  it("sends Link rel=next only while has_more; the last page keeps its cursor but has no Link", async () => {
    const ada = await makeMember();
    await call(ada.token, "POST", "/todos", { title: "one" });
    await call(ada.token, "POST", "/todos", { title: "two" });
    const { cursor } = await pull(ada.token, { count: 2 });

    const first = await api("GET", "/events?limit=1", { token: ada.token });
    expect(first.body.has_more).toBe(true);
    expect(first.headers.get("link")).toBe(
      `</api/v1/events?limit=1&after=${encodeURIComponent(first.body.next_cursor)}>; rel="next"`,
    );
    const last = await api("GET", `/events?after=${encodeURIComponent(cursor)}`, { token: ada.token });
    expect(last.body).toMatchObject({ data: [], has_more: false, next_cursor: cursor });
    expect(last.headers.get("link")).toBeNull();
  });

  it("writes every event, also with no endpoint at all, and numbers each record's events in order", async () => {
    const ada = await makeMember();
    const { item, collection } = await someWrites(ada);
    const { entries } = await pull(ada.token, { count: 6 });
    const ofItem = entries.filter((entry) => entry.data.id === item.id);
    expect(ofItem.map((entry) => [entry.type, entry.sequence])).toEqual([
      ["item.created", 1],
      ["item.updated", 2],
      ["item.updated", 3],
      ["item.deleted", 4],
    ]);
    expect(entries.find((entry) => entry.data.id === collection.id)?.sequence).toBe(1);
    expect(ofItem.map((entry) => entry.data.rating)).toEqual([null, 4, 5, 5]);
    // A record without an id of its own (a collection type: owner and type) is numbered all the same.
    await call(ada.token, "PATCH", "/collection-types", { film: false });
    await call(ada.token, "PATCH", "/collection-types", { film: true, books: false });
    const types = (await pull(ada.token, { types: "collection_type.updated", count: 3 })).entries;
    const film = types.filter((entry) => entry.data.type === "film");
    expect(film.map((entry) => [entry.data.enabled, entry.sequence])).toEqual([
      [false, 1],
      [true, 2],
    ]);
    expect(types.find((entry) => entry.data.type === "books")?.sequence).toBe(1);
  });

  it("filters by types, and by the token's read scopes", async () => {
    const ada = await makeMember();
    await someWrites(ada);
    const { entries } = await pull(ada.token, { types: "item.updated,todo.created", count: 3 });
    expect(entries.map((entry) => entry.type)).toEqual(["item.updated", "item.updated", "todo.created"]);

    // Without items:read no item event is answered; asking for one is 403 naming the scope.
    const noItems = await tokenFor(ada.id, ["collections:read", "todos:read", "items:write"]);
    const visible = await pull(noItems, { count: 2 });
    expect(visible.entries.map((entry) => entry.type)).toEqual(["collection.created", "todo.created"]);
    const refused = await api("GET", "/events?types=item.created", { token: noItems });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="items:read"');

    const unknown = await api("GET", "/events?types=item.exploded", { token: ada.token });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].pointer).toBe("/types");
    // No read scope of any event kind: the log answers nothing, so it refuses.
    const webhooksOnly = await tokenFor(ada.id, ["webhooks:read", "webhooks:write", "items:write"]);
    expect((await api("GET", "/events", { token: webhooksOnly })).status).toBe(403);
  });

  it("answers the same on the tool surface (invoke)", async () => {
    const ada = await makeMember();
    const todo = await call(ada.token, "POST", "/todos", { title: "t" });
    // A ceiling, not a wait: on a busy shared server a long transaction elsewhere holds the log back.
    const deadline = Date.now() + 60_000;
    let data: Entry[] = [];
    while (data.length === 0 && Date.now() < deadline) {
      const invoked = await invoke(ada.token, { tool: "events_list", input: { types: "todo.created" } });
      expect(invoked.status, JSON.stringify(invoked.body)).toBe(200);
      data = invoked.body.result.data;
      if (data.length === 0) await sleep(50);
    }
    expect(data.map((entry) => entry.data.id)).toEqual([todo.id]);
  });

  it("keeps each member's events to themselves; a message is in both logs", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await someWrites(ada);
    const message = await call(ada.token, "POST", "/messages", { recipient_id: bob.id, body: "hi" });
    const adas = await pull(ada.token, { count: 7 });
    const bobs = await pull(bob.token, { count: 1 });
    expect(bobs.entries.map((entry) => [entry.type, entry.data.id])).toEqual([["message.created", message.id]]);
    expect(adas.entries.at(-1)).toEqual(bobs.entries[0]);
    // Under RLS bob reads only the message of ada's events, whatever the query asks for.
    const count = async (as: TestMember) =>
      (
        await sqlAsMember<{ n: number }>(
          as.id,
          "select count(*)::int as n from app_private.webhook_events where member_id = $1",
          [ada.id],
        )
      )[0]?.n;
    expect(await count(ada)).toBe(7);
    expect(await count(bob)).toBe(1);
  });

  it("purges events after 30 days, and those of a deleted account at once", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await someWrites(ada);
    await call(bob.token, "POST", "/messages", { recipient_id: ada.id, body: "hi" });
    await sqlAsService(
      "update app_private.webhook_events set created_at = created_at - interval '31 days' where member_id = $1",
      [ada.id],
    );
    await sqlAsService("delete from auth.users where id = $1", [bob.id]);
    await runUpkeep(UPKEEP_TASKS.filter((task) => task.name === "webhook_deliveries"));
    const left = await sqlAsService(
      "select type from app_private.webhook_events where member_id = any($1) or other_member_id = any($1)",
      [[ada.id, bob.id]],
    );
    expect(left).toEqual([]);
    // The sequence counters of records that can change again stay: the next update continues the count.
    const [counter] = await sqlAsService<{ n: number }>(
      "select count(*)::int as n from app_private.record_event_sequences s where s.last_type = 'collection.created' and s.record_id in (select id from public.collections where owner_id = $1)",
      [ada.id],
    );
    expect(counter?.n).toBe(1);
  });
});

describe("redelivery since a time (POST /webhook-endpoints/{id}/redeliver)", {
  timeout: PULLING_TEST_TIMEOUT_MS,
}, () => {
  it("sends the endpoint every kept event since then again, the same ids and bodies, once per request while pending", async () => {
    const ada = await makeMember();
    const before = await sqlAsService<{ now: string }>("select to_jsonb(now()) #>> '{}' as now");
    // Events written while ada had no endpoint at all are kept too.
    const { types } = await someWrites(ada);
    const r = await receiver();
    const endpoint = await endpointFor(ada, r.url, ["item.created", "item.updated", "item.deleted"]);
    const logged = (await pull(ada.token, { types: "item.created,item.updated,item.deleted", count: 4 })).entries;

    const since = before[0]?.now;
    const asked = await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, {
      token: ada.token,
      body: { since },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body).toMatchObject({
      endpoint_id: endpoint.id,
      queued: types.filter((t) => t.startsWith("item.")).length,
    });
    const again = await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, {
      token: ada.token,
      body: { since },
    });
    expect(again.body.queued).toBe(0);
    await drain();
    await r.waitFor(4);
    expect(r.received).toHaveLength(4);
    const bodies = new Map(r.received.map((one) => [one.json.id, one.body]));
    for (const entry of logged) expect(bodies.get(entry.id)).toBe(JSON.stringify(entry));

    // Delivered: asking again sends them again. Earlier than 30 days ago means all that is kept.
    const longAgo = new Date(Date.now() - 90 * 86_400_000).toISOString();
    const more = await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, {
      token: ada.token,
      body: { since: longAgo },
    });
    expect(more.body.queued).toBe(4);
    expect(Date.parse(more.body.since)).toBeGreaterThan(Date.now() - 31 * 86_400_000);
    await drain();
    await r.waitFor(8);
    expect(new Set(r.received.map((one) => one.json.id)).size).toBe(4);

    const later = await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, {
      token: ada.token,
      body: { since: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(later.body.queued).toBe(0);
  });

  it("is 404 for another member's endpoint, and never sends them the caller's events", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await someWrites(bob);
    const r = await receiver();
    const endpoint = await endpointFor(ada, r.url);
    const since = new Date(Date.now() - 86_400_000).toISOString();
    const refused = await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, {
      token: bob.token,
      body: { since },
    });
    expect(refused.status).toBe(404);
    const own = await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, { token: ada.token, body: { since } });
    expect(own.body.queued).toBe(0);
    const readOnly = await tokenFor(ada.id, ["webhooks:read"]);
    expect(
      (await api("POST", `/webhook-endpoints/${endpoint.id}/redeliver`, { token: readOnly, body: { since } })).status,
    ).toBe(403);
  });
});

// A transaction held open on a connection of its own while a later one commits: the later event
// must not be answered before the earlier, nor the earlier skipped once it commits.
describe.runIf(process.env.DATABASE_URL)(
  "the cursor under concurrent writes (Postgres)",
  { timeout: PULLING_TEST_TIMEOUT_MS },
  () => {
    const own = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
    afterAll(() => own.end({ timeout: 1 }));

    it("never skips an event that commits after a later one", async () => {
      const ada = await makeMember();
      await call(ada.token, "POST", "/todos", { title: "first" });
      const start = await pull(ada.token, { count: 1 });
      let late = "";
      let early = "";
      await own.begin(async (tx) => {
        await tx.unsafe(
          "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)",
          [JSON.stringify({ sub: ada.id, role: "authenticated" })],
        );
        const [row] = await tx.unsafe("insert into public.todos (title) values ('held open') returning id");
        early = String(row?.id);
        late = (await call(ada.token, "POST", "/todos", { title: "committed first" })).id;
        const meanwhile = await api("GET", `/events?after=${start.cursor}`, { token: ada.token });
        expect(meanwhile.body.data).toEqual([]);
        expect(meanwhile.body.next_cursor).toBe(start.cursor);
      });
      const after = await pull(ada.token, { after: start.cursor, count: 2 });
      expect(after.entries.map((entry) => entry.data.id)).toEqual([early, late]);
    });
  },
);
