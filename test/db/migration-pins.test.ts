import { describe, expect, it } from "vitest";
import { migrationVersion, planGeneratedMigration } from "@/lib/db/generated-migration";
import { addPins, checkPins, hashMigrations, pinProblems, readPins, sha256 } from "@/lib/db/migration-pins";

describe("committed migrations are pinned (supabase/migrations.lock.json)", () => {
  it("every migration file has the hash it was pinned with, and every pinned file exists", () => {
    expect(pinProblems(checkPins(hashMigrations(), readPins()))).toEqual([]);
  });

  it("names a changed, a missing and an unpinned file, each with what to do", () => {
    const pins = { "1_a.sql": sha256("a"), "2_b.sql": sha256("b"), "3_c.sql": sha256("c") };
    const files = { "1_a.sql": sha256("a"), "2_b.sql": sha256("b, edited"), "4_d.sql": sha256("d") };
    expect(checkPins(files, pins)).toEqual({ changed: ["2_b.sql"], missing: ["3_c.sql"], unpinned: ["4_d.sql"] });
    const problems = pinProblems(checkPins(files, pins));
    expect(problems[0]).toMatch(/^2_b\.sql changed after it was pinned: .*write a new migration/);
    expect(problems[1]).toMatch(/^3_c\.sql is pinned but missing/);
    expect(problems[2]).toBe("4_d.sql is not pinned: run node scripts/pin-migrations.ts");
  });

  it("the pin script adds new files only, and refuses to re-pin a changed one", () => {
    const pins = { "1_a.sql": sha256("a") };
    expect(addPins({ "1_a.sql": sha256("a"), "2_b.sql": sha256("b") }, pins)).toEqual({
      pins: { "1_a.sql": sha256("a"), "2_b.sql": sha256("b") },
      added: ["2_b.sql"],
    });
    expect(() => addPins({ "1_a.sql": sha256("a, edited") }, pins)).toThrow(/1_a\.sql changed after it was pinned/);
  });
});

describe("a generator's decision (lib/db/generated-migration.ts)", () => {
  const files = [
    { name: "20261123110100_create_webhook_event_triggers.sql", sql: "v1" },
    { name: "20261124090000_other.sql", sql: "x" },
  ];

  it("writes nothing while its newest file holds the SQL", () => {
    expect(planGeneratedMigration(files, "_webhook_event_triggers.sql", "v1")).toEqual({
      write: false,
      current: "20261123110100_create_webhook_event_triggers.sql",
    });
  });

  it("writes a new file for changed SQL, versioned now or after the newest migration, never an existing name", () => {
    const now = new Date("2026-11-25T15:30:07Z");
    expect(migrationVersion(now)).toBe("20261125153007");
    expect(planGeneratedMigration(files, "_webhook_event_triggers.sql", "v2", { now })).toEqual({
      write: true,
      name: "20261125153007_webhook_event_triggers.sql",
    });
    // A clock behind the folder still lands after every migration.
    const early = new Date("2026-01-01T00:00:00Z");
    expect(planGeneratedMigration(files, "_webhook_event_triggers.sql", "v2", { now: early })).toEqual({
      write: true,
      name: "20261124090001_webhook_event_triggers.sql",
    });
    expect(() =>
      planGeneratedMigration(files, "_webhook_event_triggers.sql", "v2", { version: "20261124090000" }),
    ).toThrow(/not after the newest migration/);
  });

  it("compares with the newest of its own files only", () => {
    const more = [...files, { name: "20261125000000_webhook_event_triggers.sql", sql: "v2" }];
    expect(planGeneratedMigration(more, "_webhook_event_triggers.sql", "v2")).toMatchObject({ write: false });
    expect(planGeneratedMigration(more, "_webhook_event_triggers.sql", "v1")).toMatchObject({ write: true });
  });
});
