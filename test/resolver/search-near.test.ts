import { describe, expect, it } from "vitest";
import { type Queryable, queryOnly } from "@/lib/db";
import { searchCatalog } from "@/lib/catalog/search-query";
import { rolledBack } from "../support/rolled-back";

/**
 * A two-word query whose second word is in every title's subtitle ("midnight artist"): every
 * entry is a trigram candidate, and ranking them all took 1.3 s on a 50,000-entry catalog. The
 * search reads its full-text hits first, then only the candidates close enough by trigrams to
 * reach the page (SEARCH_NEAR), and must give the pages the full ranking gives, including a typo'd
 * title ("Midnite") that is no full-text hit but outranks most of them. On both databases; the rows
 * live in a transaction rolled back at the end.
 */
describe("search, near candidates", () => {
  it("pages a common two-word query as the full ranking does, near misses by trigram included", async () => {
    await rolledBack(async (tx) => {
      await tx.query(
        `insert into public.catalog_entries (domain, title, subtitle, popularity)
           select 'music', case when g % 10 = 0 then 'Midnight ' else '' end
                    || substr(md5(g::text), 1, 7) || ' ' || substr(md5((g * 7)::text), 1, 5)
                    || case when g % 97 = 0 then ' Midnite' else '' end,
                  'Artist ' || (g % 89), g % 12
             from generate_series(1, 1500) g`,
      );
      const statements: string[] = [];
      const recorded: Queryable["query"] = (sql, params = []) => {
        statements.push(sql);
        return tx.query(sql, params);
      };
      // The full ranking: the stored scores and full-text hits withheld, so every candidate is ranked.
      const full: Queryable = queryOnly((sql, params = []) =>
        sql.includes("public.catalog_search_words w") ? Promise.resolve([]) : tx.query(sql, params),
      );
      let [short, reference]: (string | undefined)[] = [];
      const titles: string[] = [];
      for (let page = 0; page < 3; page++) {
        const a = await searchCatalog(queryOnly(recorded), { query: "midnight artist", limit: 20, after: short });
        const b = await searchCatalog(full, { query: "midnight artist", limit: 20, after: reference });
        expect(a, `page ${page}`).toEqual(b);
        titles.push(...a.hits.map((hit) => hit.title ?? ""));
        if (!a.nextCursor) break;
        [short, reference] = [a.nextCursor, b.nextCursor ?? undefined];
      }
      expect(titles).toHaveLength(60);
      expect(titles.some((title) => title.endsWith(" Midnite"))).toBe(true);
      // The near candidates were read, and the full candidate set never was.
      expect(statements.filter((sql) => sql.includes("near as ("))).toHaveLength(3);
      const ranking = statements.filter((sql) => sql.includes("from public.catalog_entries c"));
      const fullSet = ranking.filter((sql) => !sql.includes("catalog_search_words w") && !sql.includes("near as ("));
      expect(ranking.length).toBe(6);
      expect(fullSet).toEqual([]);
    });
  });
});
