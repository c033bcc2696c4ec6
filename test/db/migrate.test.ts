import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { migrate, readMigrations } from "@/lib/db/migrate";

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

  it("names files <14 digits>_<name>.sql with unique versions", () => {
    const versions = readMigrations().map((file) => file.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("enables row level security on every table in public", async () => {
    const db = await getDb();
    const open = await db.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity`,
    );
    expect(open).toEqual([]);
  });
});
