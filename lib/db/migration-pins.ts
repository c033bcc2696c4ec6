import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR } from "./migrate.ts";

/**
 * A sha256 of every committed migration, so an applied file can never change unnoticed (a database
 * that applied it would never see the change). test/db/migration-pins.test.ts compares the folder
 * with this list; scripts/pin-migrations.ts adds new files to it and never re-pins a changed one.
 */
export const MIGRATION_PINS_FILE = path.join(
  /*turbopackIgnore: true*/ process.cwd(),
  "supabase",
  "migrations.lock.json",
);
export const PIN_COMMAND = "node scripts/pin-migrations.ts";

export type Pins = Record<string, string>;

export const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** Each migration file's name and its hash, in name order. */
export function hashMigrations(dir = MIGRATIONS_DIR): Pins {
  const names = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  return Object.fromEntries(names.map((name) => [name, sha256(fs.readFileSync(path.join(dir, name)))]));
}

export function readPins(file = MIGRATION_PINS_FILE): Pins {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Pins) : {};
}

export interface PinCheck {
  /** Pinned files whose bytes differ: applied somewhere, so they must not change. */
  changed: string[];
  /** Pinned files no longer in the folder. */
  missing: string[];
  /** Files not pinned yet: new migrations, pinned by the script. */
  unpinned: string[];
}

export function checkPins(files: Pins, pins: Pins): PinCheck {
  const names = Object.keys(files).sort();
  return {
    changed: names.filter((name) => pins[name] !== undefined && pins[name] !== files[name]),
    missing: Object.keys(pins)
      .filter((name) => files[name] === undefined)
      .sort(),
    unpinned: names.filter((name) => pins[name] === undefined),
  };
}

/** The problems as sentences that say what to do; empty when the folder matches its pins. */
export function pinProblems(check: PinCheck): string[] {
  return [
    ...check.changed.map(
      (name) =>
        `${name} changed after it was pinned: an applied migration never changes; restore it and write a new migration`,
    ),
    ...check.missing.map((name) => `${name} is pinned but missing: an applied migration is never removed; restore it`),
    ...check.unpinned.map((name) => `${name} is not pinned: run ${PIN_COMMAND}`),
  ];
}

/** The pins with every unpinned file added, in name order; refuses while any pinned file changed or is missing. */
export function addPins(files: Pins, pins: Pins): { pins: Pins; added: string[] } {
  const check = checkPins(files, pins);
  const refused = pinProblems({ ...check, unpinned: [] });
  if (refused.length > 0) throw new Error(refused.join("\n"));
  const merged = { ...pins };
  for (const name of check.unpinned) merged[name] = files[name] as string;
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((name) => [name, merged[name] as string]),
  );
  return { pins: sorted, added: check.unpinned };
}
