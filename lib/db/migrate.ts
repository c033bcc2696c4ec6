import fs from "node:fs";
import path from "node:path";
import type { Database } from "./types.ts";

// Read at run time from the project root: bundled server code has no stable import.meta.dirname.
// The build must not trace from this dynamic path (it would pull the whole project into the server
// bundle); next.config.ts includes supabase/migrations explicitly instead.
export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "supabase", "migrations");

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** Files named `<14-digit version>_<name>.sql`, in version order; the same names `supabase db push` reads. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir)
    .filter((file) => /^\d{14}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [version = "", ...rest] = file.replace(/\.sql$/, "").split("_");
      return { version, name: rest.join("_"), sql: fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, file), "utf8") };
    });
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so concurrent starters
 * (several workers or instances) wait for one another and a failure leaves nothing half applied.
 * The ledger is Supabase's own table, so the CLI and this migrator agree on what is applied.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(7261122)");
    await tx.exec(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, statements text[], name text);`);
    const done = new Set(
      (await tx.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).map(
        (row) => row.version,
      ),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new Error(`Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`);
      }
      await tx.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(`${migration.version}_${migration.name}`);
    }
    return applied;
  });
}
