// Writes what the offline seed catalog (supabase/seed/catalog/*.json) adds to the applied base seed migration
// (20261122030300_seed_catalog_entries.sql, frozen) as a new *_seed_catalog_platform_ids.sql when it differs from the
// newest one: ids and platform links added since, safe to apply again. Any other change to a seeded entry stops here,
// to ship as a migration of its own. test/resolver/seed.test.ts fails while the newest file is stale.
// Run: node scripts/build-catalog-seed.ts [--version <14 digits>]   (default version: now, UTC)
import { writeGeneratedMigration } from "../lib/db/generated-migration.ts";
import { SEED_IDS_MIGRATION_SUFFIX, seedIdsMigrationSql } from "../lib/catalog/seed-ids-migration.ts";

console.log(writeGeneratedMigration(SEED_IDS_MIGRATION_SUFFIX, seedIdsMigrationSql(), process.argv));
