import fs from "node:fs";
import path from "node:path";
import type { Database } from "./types.ts";

// Read at run time from the project root: bundled server code has no stable import.meta.dirname.
// The build must not trace from this dynamic path (it would pull the whole project into the server
// bundle); next.config.ts includes supabase/migrations explicitly instead.
export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "supabase", "migrations");

/** The Supabase CLI's own rule (`supabase db push`): any run of digits, an underscore, any name. */
export const MIGRATION_FILE = /^([0-9]+)_(.*)\.sql$/;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/**
 * Every `.sql` file in the folder, in version order. A `.sql` file the CLI would apply and this
 * migrator would not (or the other way round) is refused by name rather than skipped: a skipped
 * migration is a table that exists on Supabase and not here, and no test would notice.
 */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const files = fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith(".sql"))
    .map((entry) => entry.name)
    .sort();
  const migrations: Migration[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const match = MIGRATION_FILE.exec(file);
    if (!match) {
      throw new Error(
        `Migration file ${path.join(dir, file)} is not named <version>_<name>.sql (digits, an underscore, a name, ".sql"): rename it or move it out of the folder.`,
      );
    }
    const [, version = "", name = ""] = match;
    const other = seen.get(version);
    if (other)
      throw new Error(`Migration files ${other} and ${file} share the version ${version}: give one a new version.`);
    seen.set(version, file);
    migrations.push({ version, name, sql: fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, file), "utf8") });
  }
  // File-name order, as the CLI reads the folder.
  return migrations;
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
