import fs from "node:fs";

/** A migration's SQL, by its name without `.sql`. */
export const migrationText = (migration: string): string =>
  fs.readFileSync(new URL(`../supabase/migrations/${migration}.sql`, import.meta.url), "utf8");

/**
 * A function as a migration created it, as a `create or replace function` statement: for the A/B scripts that
 * put an earlier version of the store back beside the current one (bench/events-ab.ts, ledger-switch.ts,
 * catalog-words.ts). `name` is schema-qualified, without its argument list; the body is the first $$-quoted one.
 */
export function migrationFunction(migration: string, name: string): string {
  const sql = migrationText(migration);
  const start = sql.search(new RegExp(`create (or replace )?function ${name.replace(".", "\\.")}\\(`));
  const body = start < 0 ? -1 : sql.indexOf("$$", start);
  const close = body < 0 ? -1 : sql.indexOf("$$;", body + 2);
  if (close < 0) throw new Error(`${migration} creates no ${name}`);
  return sql.slice(start, close + 3).replace(/^create function/, "create or replace function");
}
