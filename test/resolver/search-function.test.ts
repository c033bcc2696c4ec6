import { describe, expect, it } from "vitest";
import { CATALOG_SEARCH_SUFFIX, catalogSearchFunctionSql } from "@/lib/catalog/search-sql";
import { newestGeneratedMigration } from "@/lib/db/generated-migration";

// The store's search function is generated from lib/catalog/search-sql.ts, which the tests also
// explain statement by statement (search-plan): the newest migration must hold that SQL.
describe("the catalog search function", () => {
  it("is, in the newest generated migration, the SQL lib/catalog/search-sql.ts writes", () => {
    const file = newestGeneratedMigration(CATALOG_SEARCH_SUFFIX);
    expect(file?.sql, "run: npm run generate").toBe(catalogSearchFunctionSql());
  });
});
