// Writes the offline seed catalog (supabase/seed/catalog/*.json) as a migration of upsert calls.
// Run: node scripts/build-catalog-seed.ts   (test/resolver/seed.test.ts fails when it is stale)
import fs from "node:fs";
import { SEED_MIGRATION_FILE, seedMigrationSql } from "../lib/domain/resolver/seed-migration.ts";

const SEED_MIGRATION = SEED_MIGRATION_FILE;

fs.writeFileSync(SEED_MIGRATION, seedMigrationSql());
console.log(`wrote ${SEED_MIGRATION}`);
