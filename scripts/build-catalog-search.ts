// Writes app_private.search_catalog (lib/catalog/search-sql.ts) as a new migration when it differs
// from the newest *_catalog_search_function.sql (an applied migration is never rewritten).
// test/resolver/search-function.test.ts fails while that file is stale.
// Run: node scripts/build-catalog-search.ts [--version <14 digits>]   (default version: now, UTC)
import { writeGeneratedMigration } from "../lib/db/generated-migration.ts";
import { CATALOG_SEARCH_SUFFIX, catalogSearchFunctionSql } from "../lib/catalog/search-sql.ts";

console.log(writeGeneratedMigration(CATALOG_SEARCH_SUFFIX, catalogSearchFunctionSql(), process.argv));
