import { describe, expect, it } from "vitest";
import { rolledBack } from "../support/rolled-back";
import { pagesAsFullRanking } from "./support/full-ranking";

/**
 * A two-word query whose second word is in every title's subtitle ("midnight artist"): every
 * entry is a trigram candidate, and ranking them all took 1.3 s on a 50,000-entry catalog. The
 * search reads its full-text hits first, then only the candidates close enough by trigrams to
 * reach the page (SEARCH_NEAR in lib/catalog/search-sql.ts), and must give the pages the full ranking gives, including a typo'd
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
      // Each page the full ranking's (every candidate ranked, labelled "all").
      const pages = await pagesAsFullRanking(tx, "midnight artist", { pages: 3 });
      // The near candidates were read, and the full candidate set never was.
      expect(pages.map((page) => page.ranked)).toEqual(["near", "near", "near"]);
      const titles = pages.flatMap((page) => page.hits.map((hit) => hit.title ?? ""));
      expect(titles).toHaveLength(60);
      expect(titles.some((title) => title.endsWith(" Midnite"))).toBe(true);
    });
  });
});
