// Writes the offline seed catalog (supabase/seed/catalog/*.json) as a new migration of inserts when it differs
// from the newest *_seed_catalog_entries.sql (an applied migration is never rewritten). test/resolver/seed.test.ts
// fails while that file is stale.
// Run: node scripts/build-catalog-seed.ts [--version <14 digits>]   (default version: now, UTC)
import { writeGeneratedMigration } from "../lib/db/generated-migration.ts";
import { SEED_MIGRATION_SUFFIX, seedMigrationSql } from "../lib/domain/resolver/seed-migration.ts";

console.log(writeGeneratedMigration(SEED_MIGRATION_SUFFIX, seedMigrationSql(), process.argv));
