import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { newestGeneratedMigration, planGeneratedMigration, readMigrationTexts } from "@/lib/db/generated-migration";
import { EVENT_TRIGGERS_SUFFIX, eventTriggersSql } from "@/lib/webhook-delivery/event-triggers-sql";
import { EVENT_KINDS } from "@/registry/events";
import { resources } from "@/registry/index";

describe("webhook event triggers", () => {
  it("are the newest generated migration (run node scripts/build-event-triggers.ts when this fails)", () => {
    expect(newestGeneratedMigration(EVENT_TRIGGERS_SUFFIX)?.sql).toBe(eventTriggersSql());
  });

  it("a changed registry gets a new migration, after every existing one, never a rewritten file", () => {
    const files = readMigrationTexts();
    expect(planGeneratedMigration(files, EVENT_TRIGGERS_SUFFIX, eventTriggersSql())).toMatchObject({ write: false });
    const plan = planGeneratedMigration(files, EVENT_TRIGGERS_SUFFIX, eventTriggersSql(EVENT_KINDS.slice(1)));
    expect(plan.write).toBe(true);
    const name = plan.write ? plan.name : "";
    expect(name).toMatch(/^\d{14}_webhook_event_triggers\.sql$/);
    expect(files.map((file) => file.name)).not.toContain(name);
    for (const file of files) expect(name > file.name, `${name} after ${file.name}`).toBe(true);
  });

  it("exist once per event kind after every migration, whichever version made them", async () => {
    const db = await getDb();
    const rows = await db.query<{ tgname: string }>(
      `select tgname from pg_trigger where not tgisinternal and tgfoid = 'app_private.emit_webhook_event()'::regprocedure`,
    );
    expect(rows.map((row) => row.tgname).sort()).toEqual(
      EVENT_KINDS.map((kind) => `webhook_${kind.type.replace(/\./g, "_")}`).sort(),
    );
  });

  it("cover every event a resource declares, each named <resource>.<verb>", () => {
    const declared = resources.flatMap((resource) => resource.events ?? []);
    expect(EVENT_KINDS.map((kind) => kind.type)).toEqual(declared);
    for (const type of declared) expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });
});
