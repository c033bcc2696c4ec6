import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as invokeRoute } from "@/app/api/agent/invoke/route";
import { deleteAccount } from "@/lib/auth/account-deletion";
import { sessionCaller } from "@/lib/auth/caller";
import { revokeGrantIn } from "@/lib/auth/oauth/grants";
import { createToken } from "@/lib/auth/tokens";
import { asService, getDb } from "@/lib/db";
import { newestGeneratedMigration } from "@/lib/db/generated-migration";
import { ACTIVITY_TRIGGERS_SUFFIX, activityTriggersSql } from "@/lib/domain/activity/triggers-sql";
import { runUpkeep } from "@/lib/upkeep/run";
import { UPKEEP_TASKS } from "@/lib/upkeep/tasks";
import { listActivity, listCredentials } from "@/lib/web/activity";
import { callAsSession } from "@/lib/web/session-call";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember, tokenFor } from "../support/factories";
import { approveAndExchange, registerClient } from "../support/oauth-grants";
import { mcpCall } from "../surfaces/mcp-client";
import { SCOPES } from "@/registry/scopes";

async function invoke(token: string, tool: string, input: unknown) {
  const request = new Request("http://localhost/api/agent/invoke", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ tool, input }),
  });
  const response = await invokeRoute(request);
  return { status: response.status, body: await response.json() };
}

async function collectionWithItems(member: TestMember, count: number) {
  const collection = (
    await api("POST", "/collections", { token: member.token, body: { name: "Road trip", type: "music" } })
  ).body;
  const items = [];
  for (let i = 0; i < count; i++) {
    const song = await makeCatalogEntry();
    items.push(
      (
        await api("POST", "/items", {
          token: member.token,
          body: { collection_id: collection.id, song_id: song, note: `n${i}` },
        })
      ).body,
    );
  }
  return { collection, items };
}

const activityOf = (member: TestMember, operation: string) =>
  asService((tx) =>
    tx.query<{
      id: string;
      before: Record<string, unknown> | null;
      actor_id: string;
      surface: string;
      undone_at: string | null;
    }>(
      // Deletions in public.activity, creates and updates in the events (20261127200000_ledger_from_events.sql).
      `select id, before, actor_id, surface, undone_at, created_at from public.activity where owner_id = $1 and operation = $2
        union all
       select id, before, actor_id, actor_surface, undone_at, created_at from app_private.webhook_events
        where actor_member = $1 and type = $2
        order by created_at desc`,
      [member.id, operation],
    ),
  );

/** An endpoint listening to everything, so the member's changes are written as events. */
const hookFor = (member: TestMember) =>
  asService((tx) =>
    tx.query(
      "insert into public.webhook_endpoints (owner_id, url, events) values ($1, 'https://hooks.example.test/in', '{*}')",
      [member.id],
    ),
  );

const headers = () => new Headers({ "x-request-id": randomUUID() });

describe("activity: who did it, and undo", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("the activity triggers are the newest generated migration (run node scripts/build-activity-triggers.ts when this fails)", () => {
    expect(newestGeneratedMigration(ACTIVITY_TRIGGERS_SUFFIX)?.sql).toBe(activityTriggersSql());
  });

  it("every event records its actor and surface: the token over REST, invoke and MCP, the member's session on the page", async () => {
    const ada = await makeMember();
    await hookFor(ada);
    const rest = (await api("POST", "/todos", { token: ada.token, body: { title: "rest" } })).body;
    const viaInvoke = (await invoke(ada.token, "todos_create", { title: "invoke" })).body.result;
    const viaMcp = (await mcpCall(ada.token, "todos_create", { title: "mcp" })).structuredContent as { id: string };
    const session = randomUUID();
    const page = await callAsSession(sessionCaller(ada.id, session), "todos_create", { title: "page" }, headers());
    expect(page.ok).toBe(true);
    const pageId = page.ok ? (page.body as { id: string }).id : "";
    const events = await asService((tx) =>
      tx.query<{ record_id: string; actor_kind: string; actor_id: string; actor_surface: string }>(
        "select record_id, actor_kind, actor_id, actor_surface from app_private.webhook_events where type = 'todo.created' and record_id = any($1)",
        [[rest.id, viaInvoke.id, viaMcp.id, pageId]],
      ),
    );
    const by = new Map(events.map((event) => [event.record_id, event]));
    expect(by.get(rest.id)).toMatchObject({ actor_kind: "token", actor_id: ada.tokenId, actor_surface: "rest" });
    expect(by.get(viaInvoke.id)).toMatchObject({ actor_kind: "token", actor_id: ada.tokenId, actor_surface: "invoke" });
    expect(by.get(viaMcp.id)).toMatchObject({ actor_kind: "token", actor_id: ada.tokenId, actor_surface: "mcp" });
    expect(by.get(pageId)).toMatchObject({ actor_kind: "session", actor_id: session, actor_surface: "page" });
    // The ledger holds the credential's writes, not the member's own.
    const created = await activityOf(ada, "todo.created");
    expect(created.map((row) => row.surface).sort()).toEqual(["invoke", "mcp", "rest"]);
  });

  it("an update keeps only the changed writable columns; undo puts them back, once, and is the member's event", async () => {
    const ada = await makeMember();
    await hookFor(ada);
    const { collection } = await collectionWithItems(ada, 0);
    await api("PATCH", `/collections/${collection.id}`, {
      token: ada.token,
      body: { name: "Renamed", description: "new" },
    });
    const [row] = await activityOf(ada, "collection.updated");
    expect(row?.before).toEqual({ name: "Road trip", description: "" });
    const session = randomUUID();
    const undone = await callAsSession(
      sessionCaller(ada.id, session),
      "activity_undo",
      { activity_id: row?.id },
      headers(),
    );
    expect(undone).toMatchObject({
      ok: true,
      body: { activity_id: row?.id, operation: "collection.updated", restored: [collection.id] },
    });
    const back = (await api("GET", `/collections/${collection.id}`, { token: ada.token })).body;
    expect(back).toMatchObject({ name: "Road trip", description: "" });
    const [marked] = await activityOf(ada, "collection.updated");
    expect(marked?.undone_at).not.toBeNull();
    const events = await asService((tx) =>
      tx.query<{ actor_kind: string; actor_id: string; data: { name: string } }>(
        "select actor_kind, actor_id, data from app_private.webhook_events where type = 'collection.updated' and record_id = $1 order by created_at",
        [collection.id],
      ),
    );
    expect(events.map((event) => [event.actor_kind, event.actor_id, event.data.name])).toEqual([
      ["token", ada.tokenId, "Renamed"],
      ["session", session, "Road trip"],
    ]);
    const again = await callAsSession(
      sessionCaller(ada.id, session),
      "activity_undo",
      { activity_id: row?.id },
      headers(),
    );
    expect(again).toMatchObject({ ok: false, problem: { status: 409, code: "conflict" } });
  });

  it("keeps a credential's create and update in the event each fires, with no second row; a session's writes are no entry", async () => {
    const ada = await makeMember();
    const todo = (await api("POST", "/todos", { token: ada.token, body: { title: "first" } })).body;
    await api("PATCH", `/todos/${todo.id}`, { token: ada.token, body: { title: "second" } });
    const page = await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "todos_update",
      { id: todo.id, title: "third" },
      headers(),
    );
    expect(page.ok).toBe(true);
    const rows = await asService((tx) =>
      tx.query("select operation from public.activity where owner_id = $1", [ada.id]),
    );
    expect(rows).toEqual([]);
    const events = await asService((tx) =>
      tx.query<{ type: string; actor_member: string | null; before: Record<string, unknown> | null }>(
        "select type, actor_member, before from app_private.webhook_events where record_id = $1 order by txid, log_position",
        [todo.id],
      ),
    );
    expect(events).toEqual([
      { type: "todo.created", actor_member: ada.id, before: null },
      { type: "todo.updated", actor_member: ada.id, before: { title: "first" } },
      { type: "todo.updated", actor_member: null, before: null },
    ]);
    const listed = await listActivity(ada.id, {});
    expect(listed.map((entry) => [entry.operation, entry.undoable])).toEqual([
      ["todo.updated", true],
      ["todo.created", false],
    ]);
  });

  it("a message and a follow a token makes are in the writer's activity, not in the other member's", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect(
      (await api("POST", "/messages", { token: ada.token, body: { recipient_id: bob.id, body: "hi" } })).status,
    ).toBe(201);
    expect((await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } })).status).toBe(201);
    expect((await listActivity(ada.id, {})).map((entry) => entry.operation).sort()).toEqual([
      "follow.created",
      "message.created",
    ]);
    expect(await listActivity(bob.id, {})).toEqual([]);
  });

  it("names an app by its client in the activity, ended or not", async () => {
    const ada = await makeMember();
    const clientId = await registerClient("Trip Planner");
    const { grantId, access } = await approveAndExchange(ada.id, clientId, ["todos:write", "todos:read"]);
    await mcpCall(access, "todos_create", { title: "from the app" });
    const entries = await listActivity(ada.id, {});
    expect(entries.map((entry) => [entry.operation, entry.actor_kind, entry.actor_id])).toEqual([
      ["todo.created", "oauth", grantId],
    ]);
    expect(await listCredentials(ada.id, entries)).toContainEqual({
      key: `oauth:${grantId}`,
      label: "App “Trip Planner”",
    });
    await asService((tx) => revokeGrantIn(tx, grantId, "member", ada.id));
    expect(await listCredentials(ada.id, entries)).toContainEqual({
      key: `oauth:${grantId}`,
      label: "App “Trip Planner”, disconnected",
    });
    expect(await listCredentials(ada.id, [])).not.toContainEqual(expect.objectContaining({ key: `oauth:${grantId}` }));
  });

  it("an update entry kept in public.activity before the events kept them is still undone against its image", async () => {
    const ada = await makeMember();
    const todo = (await api("POST", "/todos", { token: ada.token, body: { title: "before" } })).body;
    await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "todos_update",
      { id: todo.id, title: "after" },
      headers(),
    );
    const [legacy] = await asService((tx) =>
      tx.query<{ id: string }>(
        `insert into public.activity (owner_id, actor_kind, actor_id, surface, operation, record_table, record_id, before, after)
         select $1, 'token', $2, 'rest', 'todo.updated', 'public.todos', t.id, '{"title": "before"}', to_jsonb(t)
           from public.todos t where t.id = $3 returning id`,
        [ada.id, ada.tokenId, todo.id],
      ),
    );
    const undone = await invoke(ada.token, "activity_undo", { activity_id: legacy?.id });
    expect(undone.status).toBe(200);
    expect((await api("GET", `/todos/${todo.id}`, { token: ada.token })).body).toMatchObject({ title: "before" });
  });

  it("records a check-in and not the recount of the streak it causes; the ledger takes only the actor kinds and surfaces it knows", async () => {
    const ada = await makeMember();
    const streak = (await api("POST", "/streaks", { token: ada.token, body: { name: "Run" } })).body;
    const checkIn = await api("POST", `/streaks/${streak.id}/check-in`, { token: ada.token, body: {} });
    expect(checkIn.status).toBeLessThan(300);
    expect(await activityOf(ada, "streak.checked_in")).toHaveLength(1);
    expect(await activityOf(ada, "streak.updated")).toEqual([]);
    for (const [kind, surface] of [
      ["session", "rest"],
      ["token", "fax"],
    ]) {
      await expect(
        asService((tx) =>
          tx.query(
            "insert into public.activity (owner_id, actor_kind, actor_id, surface, operation) values ($1, $2, 'x', $3, 'todo.created')",
            [ada.id, kind, surface],
          ),
        ),
      ).rejects.toMatchObject({ code: "23514" });
    }
  });

  it("undo refuses when the record changed since, names what changed, and overwrites nothing", async () => {
    const ada = await makeMember();
    const { collection } = await collectionWithItems(ada, 0);
    await api("PATCH", `/collections/${collection.id}`, { token: ada.token, body: { name: "Agent's name" } });
    const [row] = await activityOf(ada, "collection.updated");
    // The member edits it afterwards, from the page.
    const edit = await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "collections_update",
      { id: collection.id, description: "mine" },
      headers(),
    );
    expect(edit.ok).toBe(true);
    const undone = await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "activity_undo",
      { activity_id: row?.id },
      headers(),
    );
    expect(undone).toMatchObject({
      ok: false,
      problem: { status: 409, errors: [{ pointer: "/description", code: "changed_since" }] },
    });
    const now = (await api("GET", `/collections/${collection.id}`, { token: ada.token })).body;
    expect(now).toMatchObject({ name: "Agent's name", description: "mine" });
    const [still] = await activityOf(ada, "collection.updated");
    expect(still?.undone_at).toBeNull();
  });

  it("a deleted collection comes back with its id and its items; the agent undoes its own last write by default", async () => {
    const ada = await makeMember();
    const { collection, items } = await collectionWithItems(ada, 2);
    expect((await api("DELETE", `/collections/${collection.id}`, { token: ada.token })).status).toBe(204);
    const undone = await invoke(ada.token, "activity_undo", {});
    expect(undone.status).toBe(200);
    expect(undone.body.result.operation).toBe("collection.deleted");
    expect([...undone.body.result.restored].sort()).toEqual([collection.id, ...items.map((item) => item.id)].sort());
    expect((await api("GET", `/collections/${collection.id}`, { token: ada.token })).body).toEqual(collection);
    for (const item of items) expect((await api("GET", `/items/${item.id}`, { token: ada.token })).body).toEqual(item);
    // The restore's own writes are not taken back by default: the latest write left is the last item's
    // create, which is refused rather than passed over.
    const next = await api("POST", "/activity/undo", { token: ada.token, body: {} });
    expect(next.status).toBe(409);
    expect(next.body.detail).toMatch(/A create is not undone/);
  });

  it("a credential reaches only its own writes; another member neither sees nor undoes them (404)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const todo = (await api("POST", "/todos", { token: ada.token, body: { title: "keep" } })).body;
    await api("DELETE", `/todos/${todo.id}`, { token: ada.token });
    const [row] = await activityOf(ada, "todo.deleted");
    const other = await tokenFor(ada.id, ["todos:write"]);
    expect((await api("POST", "/activity/undo", { token: other, body: { activity_id: row?.id } })).status).toBe(404);
    expect((await api("POST", "/activity/undo", { token: bob.token, body: { activity_id: row?.id } })).status).toBe(
      404,
    );
    const bobSession = await callAsSession(
      sessionCaller(bob.id, randomUUID()),
      "activity_undo",
      { activity_id: row?.id },
      headers(),
    );
    expect(bobSession).toMatchObject({ ok: false, problem: { status: 404 } });
    expect((await listActivity(bob.id, {})).map((entry) => entry.id)).not.toContain(row?.id);
    expect((await listActivity(ada.id, {})).map((entry) => entry.id)).toContain(row?.id);
    expect((await api("GET", `/todos/${todo.id}`, { token: ada.token })).status).toBe(404);
  });

  it("a token's refused writes are in its activity with their error code", async () => {
    const ada = await makeMember();
    const reader = await makeMember({ scopes: ["todos:read"] });
    const denied = await api("POST", "/todos", { token: reader.token, body: { title: "no" } });
    expect(denied.status).toBe(403);
    const missing = randomUUID();
    expect((await api("DELETE", `/todos/${missing}`, { token: ada.token })).status).toBe(404);
    expect((await api("POST", "/todos", { token: ada.token, body: { title: "" } })).status).toBe(422);
    const refused = (await listActivity(reader.id, {})).find((entry) => entry.operation === "todos_create");
    expect(refused).toMatchObject({
      status: 403,
      error_code: "insufficient_scope",
      actor_id: reader.tokenId,
      undoable: false,
    });
    const mine = await listActivity(ada.id, { credential: `token:${ada.tokenId}` });
    expect(mine.find((entry) => entry.operation === "todos_delete")).toMatchObject({
      status: 404,
      error_code: "not_found",
      record_id: missing,
    });
    expect(mine.find((entry) => entry.operation === "todos_create")).toMatchObject({
      status: 422,
      error_code: "invalid_request",
    });
    // Reads are not activity.
    await api("GET", `/todos/${missing}`, { token: ada.token });
    expect((await listActivity(ada.id, {})).some((entry) => entry.operation === "todos_get")).toBe(false);
  });

  it("a read-only credential's write is 403 read_only_credential, and the attempt is in its activity", async () => {
    const ada = await makeMember();
    const { token, record } = await createToken({
      memberId: ada.id,
      name: "reader",
      scopes: SCOPES,
      limits: { readOnly: true },
    });
    const refused = await api("POST", "/todos", { token, body: { title: "not through this one" } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("read_only_credential");
    const activity = await listActivity(ada.id, { credential: `token:${record.id}` });
    expect(activity).toEqual([
      expect.objectContaining({
        operation: "todos_create",
        status: 403,
        error_code: "read_only_credential",
        undoable: false,
      }),
    ]);
    // Nothing was written on its behalf.
    expect((await api("GET", "/todos", { token: ada.token })).body.data).toEqual([]);
  });

  it("undo needs the write scope of what it restores, and obeys blocks", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const follow = (await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } })).body;
    expect(follow.id).toBeDefined();
    expect((await api("DELETE", `/follows/${follow.id}`, { token: ada.token })).status).toBe(204);
    const [row] = await activityOf(ada, "follow.deleted");
    await asService((tx) =>
      tx.query("insert into public.blocks (blocker_id, blocked_id) values ($1, $2)", [bob.id, ada.id]),
    );
    const undone = await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "activity_undo",
      { activity_id: row?.id },
      headers(),
    );
    expect(undone).toMatchObject({ ok: false, problem: { status: 403, code: "write_refused" } });
    const todo = (await api("POST", "/todos", { token: ada.token, body: { title: "t" } })).body;
    const writer = await tokenFor(ada.id, ["todos:write", "goals:write"]);
    await api("PATCH", `/todos/${todo.id}`, { token: writer, body: { title: "u" } });
    const scoped = await tokenFor(ada.id, ["goals:write"]);
    const [update] = await activityOf(ada, "todo.updated");
    expect((await api("POST", "/activity/undo", { token: scoped, body: { activity_id: update?.id } })).status).toBe(
      404,
    );
  });

  it("a deleted account takes its activity with it", async () => {
    const ada = await makeMember();
    await api("POST", "/todos", { token: ada.token, body: { title: "gone" } });
    expect(await activityOf(ada, "todo.created")).toHaveLength(1);
    expect(await deleteAccount(ada.id)).toBe(true);
    expect(await activityOf(ada, "todo.created")).toEqual([]);
  });

  it("the upkeep purges activity after 30 days", async () => {
    const ada = await makeMember();
    const todo = (await api("POST", "/todos", { token: ada.token, body: { title: "old" } })).body;
    await api("DELETE", `/todos/${todo.id}`, { token: ada.token });
    await asService((tx) =>
      tx.query("update public.activity set created_at = now() - interval '31 days' where owner_id = $1", [ada.id]),
    );
    await runUpkeep(UPKEEP_TASKS.filter((task) => task.name === "old_activity"));
    expect(await activityOf(ada, "todo.deleted")).toEqual([]);
  });
});
