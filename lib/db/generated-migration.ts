import fs from "node:fs";
import path from "node:path";
import { MIGRATION_FILE, MIGRATIONS_DIR } from "./migrate.ts";

/**
 * Generated migrations are append-only: a database that applied a file never reads it again, so a
 * generator that rewrote it in place would leave that database without the change. A generator's
 * files share a name suffix; the newest one holds what the generator wrote last, and a different
 * output becomes a new file after every existing migration. Its SQL must therefore be safe to apply
 * over the previous one (create or replace, drop … if exists).
 */
export interface MigrationText {
  name: string;
  sql: string;
}

export type GeneratedMigrationPlan = { write: false; current: string } | { write: true; name: string };

/** 14 digits, UTC: the Supabase CLI's own version format. */
export function migrationVersion(at: Date): string {
  return at.toISOString().replace(/\D/g, "").slice(0, 14);
}

export function newestWithSuffix(files: readonly MigrationText[], suffix: string): MigrationText | undefined {
  return files
    .filter((file) => file.name.endsWith(suffix))
    .sort((a, b) => a.name.localeCompare(b.name))
    .at(-1);
}

/**
 * What a generator does with `sql`: nothing when its newest file already holds it; otherwise write a
 * new file named `<version><suffix>`, the version after every existing one (`version` when given, else
 * the time `now`). Never the name of an existing file.
 */
export function planGeneratedMigration(
  files: readonly MigrationText[],
  suffix: string,
  sql: string,
  options: { now?: Date; version?: string } = {},
): GeneratedMigrationPlan {
  const newest = newestWithSuffix(files, suffix);
  if (newest && newest.sql === sql) return { write: false, current: newest.name };
  const versions = files.map((file) => MIGRATION_FILE.exec(file.name)?.[1] ?? "").filter(Boolean);
  const last = versions.reduce((max, v) => (BigInt(v) > BigInt(max) ? v : max), "0");
  let version = options.version ?? migrationVersion(options.now ?? new Date());
  if (!/^\d{14}$/.test(version)) throw new Error(`migration version ${version} is not 14 digits`);
  if (BigInt(version) <= BigInt(last)) {
    if (options.version) throw new Error(`migration version ${version} is not after the newest migration ${last}`);
    version = (BigInt(last) + 1n).toString();
  }
  return { write: true, name: `${version}${suffix}` };
}

export function readMigrationTexts(dir = MIGRATIONS_DIR): MigrationText[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), "utf8") }));
}

/** The newest file of a generator, read from the folder (what its staleness test compares). */
export function newestGeneratedMigration(suffix: string, dir = MIGRATIONS_DIR): MigrationText | undefined {
  return newestWithSuffix(readMigrationTexts(dir), suffix);
}

/** For the generator scripts: applies the plan to the folder, and says what it did. */
export function writeGeneratedMigration(
  suffix: string,
  sql: string,
  argv: readonly string[],
  dir = MIGRATIONS_DIR,
): string {
  // --new: the registry constants' script's older spelling, which its generated header still names.
  const at = Math.max(argv.indexOf("--version"), argv.indexOf("--new"));
  const plan = planGeneratedMigration(readMigrationTexts(dir), suffix, sql, {
    version: at >= 0 ? argv[at + 1] : undefined,
  });
  if (!plan.write) return `unchanged: ${path.join(dir, plan.current)} already holds this SQL`;
  fs.writeFileSync(path.join(dir, plan.name), sql, { flag: "wx" });
  return `wrote ${path.join(dir, plan.name)} (a new migration; pin it: node scripts/pin-migrations.ts)`;
}
