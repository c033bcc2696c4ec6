import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { unguardedRelations } from "@/lib/db/exposed-relations";
import { MIGRATIONS_DIR, migrate, readMigrations } from "@/lib/db/migrate";

const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-migrations-"));
  tempDirs.push(dir);
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
  return dir;
}

const rolledBack = new Error("roll back");
/** Runs fn in a transaction that never commits, so a test may build a bad table and look at it. */
async function inRolledBackTransaction<T>(fn: (tx: import("@/lib/db").Transaction) => Promise<T>): Promise<T> {
  const db = await getDb();
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      result = await fn(tx);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
  return result as T;
}

describe("the migrator", () => {
  it("has applied every migration once, records them in Supabase's ledger, and is safe to run again", async () => {
    const db = await getDb();
    const files = readMigrations();
    const ledger = await db.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations order by version",
    );
    expect(ledger.map((row) => row.version)).toEqual(files.map((file) => file.version));
    expect(await migrate(db)).toEqual([]);
    expect(await Promise.all([migrate(db), migrate(db)])).toEqual([[], []]);
  });

  it("keeps this project's own names to <14 digits>_<snake_name>.sql with unique versions", () => {
    const names = fs.readdirSync(MIGRATIONS_DIR).filter((file) => file.endsWith(".sql"));
    for (const name of names) expect(name).toMatch(/^\d{14}_[a-z0-9_]+\.sql$/);
    expect(readMigrations()).toHaveLength(names.length);
  });

  it("applies every name the Supabase CLI applies, in file-name order", () => {
    const dir = folderWith({
      "20261122090000_add-zz-table.sql": "select 2;",
      "20261122080000_Mixed Case.sql": "select 1;",
      "1_short.sql": "select 0;",
      "README.md": "not a migration",
    });
    expect(readMigrations(dir).map((m) => [m.version, m.name])).toEqual([
      ["1", "short"],
      ["20261122080000", "Mixed Case"],
      ["20261122090000", "add-zz-table"],
    ]);
  });

  it.each([
    "add_table.sql",
    "20261122090000-add-table.sql",
    "v20261122090000_add_table.sql",
    "20261122090000_add_table.SQL",
    "20261122090000.sql",
  ])("refuses %s, naming the file, instead of skipping it", (bad) => {
    const dir = folderWith({ "20261122000100_ok.sql": "select 1;", [bad]: "create table public.zz (id int);" });
    expect(() => readMigrations(dir)).toThrow(bad);
  });

  it("refuses two files with one version", () => {
    const dir = folderWith({ "20261122000100_a.sql": "", "20261122000100_b.sql": "" });
    expect(() => readMigrations(dir)).toThrow(/share the version 20261122000100/);
  });
});

describe("what members can reach", () => {
  it("is guarded in every schema anon or authenticated can use (tables by RLS, views by security_invoker; app_private by having no grants)", async () => {
    expect(await unguardedRelations(await getDb())).toEqual([]);
  });

  it("finds an unguarded table in public, in app_private once granted, and a view that reads as its owner", async () => {
    const found = await inRolledBackTransaction(async (tx) => {
      await tx.exec(`
        create table public.zz_open (id int);
        grant select on public.zz_open to authenticated;
        create table app_private.zz_walled (id int);
        create table app_private.zz_granted (id int);
        grant select (id) on app_private.zz_granted to anon;
        create view public.zz_view as select 1 as one;
        grant select on public.zz_view to authenticated;
        create schema zz_new;
        grant usage on schema zz_new to authenticated;
        create table zz_new.t (id int);
        grant insert on zz_new.t to authenticated;`);
      return unguardedRelations(tx);
    });
    expect(found.map((row) => `${row.schema}.${row.name}`)).toEqual([
      "app_private.zz_granted",
      "public.zz_open",
      "public.zz_view",
      "zz_new.t",
    ]);
  });
});
