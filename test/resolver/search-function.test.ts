import { describe, expect, it } from "vitest";
import { CATALOG_SEARCH_SUFFIX, catalogSearchFunctionSql, normalizedSql } from "@/lib/catalog/search-sql";
import { asService } from "@/lib/db";
import { newestGeneratedMigration } from "@/lib/db/generated-migration";

// The store's search function is generated from lib/catalog/search-sql.ts, which the tests also
// explain statement by statement (search-plan): the newest migration must hold that SQL.
describe("the catalog search function", () => {
  it("is, in the newest generated migration, the SQL lib/catalog/search-sql.ts writes", () => {
    const file = newestGeneratedMigration(CATALOG_SEARCH_SUFFIX);
    expect(file?.sql, "run: npm run generate").toBe(catalogSearchFunctionSql());
  });

  // The function normalises its query with the normalisation's own expression, which documents and
  // titles are normalised with: the stored function's body, word for word, whitespace aside.
  it("normalises the query as app_private.catalog_normalize does", async () => {
    const [row] = await asService((tx) =>
      tx.query<{ body: string }>(
        "select prosrc as body from pg_proc where oid = 'app_private.catalog_normalize(text)'::regprocedure",
      ),
    );
    const words = (sql: string) => sql.replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")").trim();
    expect(words(row?.body ?? "")).toBe(words(`select ${normalizedSql("value")}`));
  });
});
