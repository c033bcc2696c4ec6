import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrate } from "@/lib/db/migrate";
import type { Database } from "@/lib/db/types";
import type { ResourceSpec } from "@/registry/define";
import { PULLING_TEST_TIMEOUT_MS, pullEvents } from "../support/event-log";
import { freshDatabase } from "../support/fresh-database";
import { notes } from "./fixtures/notes";

/**
 * Adding a member resource takes its registry file and its migration. Here an eleventh one
 * (fixtures/notes.ts) is added the only way the project offers, appended to the registry's list of
 * member resources, and its migration (fixtures/notes.sql) plus the SQL the generators derive from
 * the registry (event and activity triggers) go into a database of this test's own. Everything
 * else is the project as it is: the real route handlers, MCP, tools, OpenAPI, events, export, account deletion and
 * the isolation checks of test/rls, over the real store with RLS.
 *
 * The registry is a static module graph, so the list is swapped in a fresh graph (vi.doMock of
 * registry/member-resources.ts, then dynamic imports), and the shared one is restored afterwards.
 */

type Holder = typeof globalThis & { __pdsDb?: Promise<Database> };
const holder = globalThis as Holder;
const MEMBER_RESOURCES = "@/registry/member-resources";

let saved: Promise<Database> | undefined;
let fresh: { db: Database; drop: () => Promise<void> };
let m: Awaited<ReturnType<typeof load>>;

async function load() {
  const [api, agent, mcp, factories, isolation, registry, events, exportSections, eventSql, activitySql] =
    await Promise.all([
      import("../support/api"),
      import("../surfaces/agent"),
      import("../surfaces/mcp-client"),
      import("../support/factories"),
      import("../support/isolation"),
      import("@/registry/index"),
      import("@/registry/events"),
      import("@/registry/export-sections"),
      import("@/lib/webhook-delivery/event-triggers-sql"),
      import("@/lib/domain/activity/triggers-sql"),
    ]);
  const openapi = await import("@/app/api/v1/openapi.json/route");
  const deletion = await import("@/lib/auth/account-deletion");
  return {
    deletion,
    api,
    agent,
    mcp,
    factories,
    isolation,
    registry,
    events,
    exportSections,
    eventSql,
    activitySql,
    openapi,
  };
}

beforeAll(async () => {
  saved = holder.__pdsDb;
  fresh = await freshDatabase();
  await migrate(fresh.db);
  holder.__pdsDb = Promise.resolve(fresh.db);
  vi.resetModules();
  vi.doMock(MEMBER_RESOURCES, async (importOriginal) => {
    const real = await importOriginal<typeof import("@/registry/member-resources")>();
    return { memberResources: [...real.memberResources, notes] };
  });
  m = await load();
  // The resource's own migration, then what `npm run generate` would derive from the registry.
  const sql = fs.readFileSync(new URL("./fixtures/notes.sql", import.meta.url), "utf8");
  await fresh.db.transaction(async (tx) => {
    await tx.exec(sql);
    await tx.exec(m.eventSql.eventTriggersSql());
    await tx.exec(m.activitySql.activityTriggersSql());
  });
}, 180_000);

afterAll(async () => {
  vi.doUnmock(MEMBER_RESOURCES);
  vi.resetModules();
  holder.__pdsDb = saved;
  await fresh?.drop();
});

const byName = (list: readonly ResourceSpec[]) => list.find((resource) => resource.name === "notes");

describe("an eleventh resource, declared in one file", () => {
  it("is in the registry the surfaces read", () => {
    expect(m.registry.resources).toHaveLength(12);
    expect(byName(m.registry.resources)).toBe(notes);
  });

  it("answers on REST under RLS: create, list, get, update, delete", async () => {
    const ada = await m.factories.makeMember({ scopes: ["todos:read", "todos:write"] });
    const created = await m.api.api("POST", "/notes", { token: ada.token, body: { title: "Call the plumber" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Call the plumber", body: "", owner_id: ada.id });
    const id = created.body.id;
    const list = await m.api.api("GET", "/notes", { token: ada.token });
    expect(list.body.data.map((row: { id: string }) => row.id)).toEqual([id]);
    const patched = await m.api.api("PATCH", `/notes/${id}`, { token: ada.token, body: { body: "Friday" } });
    expect(patched.body).toMatchObject({ id, body: "Friday" });
    const other = await m.factories.makeMember({ scopes: ["todos:read", "todos:write"] });
    expect((await m.api.api("GET", `/notes/${id}`, { token: other.token })).status).toBe(404);
    expect((await m.api.api("DELETE", `/notes/${id}`, { token: ada.token })).status).toBe(204);
    expect((await m.api.api("GET", `/notes/${id}`, { token: ada.token })).status).toBe(404);
  });

  it("is in the tool catalog and over MCP tools/list, and callable there", async () => {
    const ada = await m.factories.makeMember({ scopes: ["todos:read", "todos:write"] });
    const tools = await m.agent.getTools(ada.token);
    const names = tools.body.tools.map((tool: { name: string }) => tool.name);
    for (const verb of ["list", "get", "create", "update", "delete"]) expect(names).toContain(`notes_${verb}`);
    const client = await m.mcp.connectMcp(ada.token);
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain("notes_create");
      const made = await client.callTool({ name: "notes_create", arguments: { title: "Over MCP" } });
      expect(made.isError).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ title: "Over MCP", owner_id: ada.id });
    } finally {
      await client.close();
    }
  });

  it("is in the OpenAPI reference", async () => {
    const response = await m.openapi.GET(new Request("http://localhost/api/v1/openapi.json"));
    const doc = await response.json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/notes", "/notes/{id}"]));
    expect(doc.paths["/notes"].post.operationId).toBe("notes_create");
    expect(doc.webhooks).toHaveProperty(["note.created"]);
  });

  it("declares its event kinds, and its writes fire them into the event log", {
    timeout: PULLING_TEST_TIMEOUT_MS,
  }, async () => {
    expect(m.events.EVENT_TYPES).toEqual(expect.arrayContaining(["note.created", "note.updated", "note.deleted"]));
    const ada = await m.factories.makeMember({ scopes: ["todos:read", "todos:write"] });
    const created = await m.api.api("POST", "/notes", { token: ada.token, body: { title: "Logged" } });
    const log = await pullEvents(m.api.api, ada.token, { types: "note.created", count: 1 });
    expect(log.entries.map((event) => event.data.id)).toContain(created.body.id);
  });

  it("is in the export", async () => {
    expect(m.exportSections.EXPORT_SECTIONS.map((section) => section.file)).toContain("notes.json");
    const ada = await m.factories.makeMember({ scopes: ["todos:read", "todos:write"] });
    const created = await m.api.api("POST", "/notes", { token: ada.token, body: { title: "Exported" } });
    const exported = await m.api.api("GET", "/export", { token: ada.token });
    expect(exported.status).toBe(200);
    expect(exported.body.files["notes.json"]).toEqual([expect.objectContaining({ id: created.body.id })]);
  });

  it("goes with the account when the member deletes it", async () => {
    const ada = await m.factories.makeMember();
    expect(m.isolation.creatable(m.registry.resources)).toContain(notes);
    await m.isolation.privateRowsOf(ada, [notes], m.registry.resources);
    expect(await m.isolation.rowsNaming(notes, ada.id)).toBe(1);
    expect(await m.deletion.deleteAccount(ada.id)).toBe(true);
    expect(await m.isolation.rowsNaming(notes, ada.id)).toBe(0);
  });

  it("has a stable code for each of its constraints, from their names alone", async () => {
    const { constraintError } = await import("@/lib/domain/store-errors");
    const names = await fresh.db.query<{ name: string }>(
      "select conname as name from pg_constraint where conrelid = 'public.notes'::regclass and contype in ('c', 'u', 'f', 'x') order by 1",
    );
    expect(names.map(({ name }) => [name, constraintError(name, "notes")])).toEqual([
      ["notes_body_check", { code: "body_invalid", pointer: "/body" }],
      ["notes_owner_id_fkey", { code: "owner_not_found" }],
      ["notes_title_check", { code: "title_invalid", pointer: "/title" }],
    ]);
  });

  it("is in the isolation checks of test/rls, and passes them", async () => {
    const owned = m.isolation.privateByDefault(m.registry.resources);
    expect(byName(owned)).toBe(notes);
    const owner = await m.factories.makeMember();
    const intruder = await m.factories.makeMember();
    const ids = await m.isolation.privateRowsOf(owner, [notes], m.registry.resources);
    await m.isolation.expectHiddenFromIntruder(notes, owner, intruder, ids.notes as string);
    expect(m.isolation.insertableAlone(owned)).toContain(notes);
    await m.isolation.expectNoInsertAsAnother(notes, owner, intruder);
  });
});
