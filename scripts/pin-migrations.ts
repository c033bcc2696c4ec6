// Pins every new migration (supabase/migrations.lock.json: file name → sha256). Run after adding one:
//   node scripts/pin-migrations.ts
// It never re-pins a file that changed or vanished: it names it and exits 1 (applied migrations never change).
import fs from "node:fs";
import { addPins, hashMigrations, MIGRATION_PINS_FILE, readPins } from "../lib/db/migration-pins.ts";

try {
  const { pins, added } = addPins(hashMigrations(), readPins());
  fs.writeFileSync(MIGRATION_PINS_FILE, `${JSON.stringify(pins, null, 2)}\n`);
  console.log(added.length ? `pinned ${added.join(", ")}` : "every migration is pinned already");
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
