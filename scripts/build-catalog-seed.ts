// Writes the offline seed catalog (supabase/seed/catalog/*.json) as generated migrations.
// Run: node scripts/build-catalog-seed.ts   (test/resolver/seed.test.ts fails when they are stale)
// The base seed migration is applied and so never rewritten: ids added to the seed since are
// written to the platform-ids migration; any other change to a seeded entry stops here, to ship
// as a migration of its own.
import fs from "node:fs";
import { SEED_IDS_MIGRATION_FILE, seedIdsMigrationSql } from "../lib/domain/resolver/seed-ids-migration.ts";

fs.writeFileSync(SEED_IDS_MIGRATION_FILE, seedIdsMigrationSql());
console.log(`wrote ${SEED_IDS_MIGRATION_FILE}`);
