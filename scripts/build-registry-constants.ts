// Writes the registry's constants as SQL functions (app_private.limit_*, see lib/db/registry-constants.ts) as a
// new migration when they differ from the newest *_registry_constants.sql (an applied migration is never
// rewritten). test/db/registry-drift.test.ts fails while that file is stale.
// Run: node scripts/build-registry-constants.ts [--version <14 digits>]   (default version: now, UTC)
import { writeGeneratedMigration } from "../lib/db/generated-migration.ts";
import { REGISTRY_CONSTANTS_SUFFIX, registryConstantsSql } from "../lib/db/registry-constants.ts";

console.log(writeGeneratedMigration(REGISTRY_CONSTANTS_SUFFIX, registryConstantsSql(), process.argv));
