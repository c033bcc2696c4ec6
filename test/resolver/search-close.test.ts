import { describe, expect, it } from "vitest";
import type { Transaction } from "@/lib/db";
import { rolledBack } from "../support/rolled-back";
import { pagesAsFullRanking } from "./support/full-ranking";

/**
 * Queries with too few full-text hits for a page (two words seldom together, a typo): the search
 * ranks the candidates at the query's own word threshold first ("close") and, when that page's edge
 * could still be passed by the rest, ranks the rest and merges the two ("far"), never the whole
 * candidate set at once (lib/catalog/search-sql.ts). Each page must be the full ranking's. On both
 * databases; the rows live in a transaction rolled back at the end.
 */
describe("search, close and far candidates", () => {
  /** Pages `query` both ways, as far as `pages`; returns the short way's label and titles, page by page. */
  const pagesOf = async (tx: Transaction, query: string, pages: number) =>
    (await pagesAsFullRanking(tx, query, { pages })).map(({ ranked, hits }) => ({
      ranked,
      titles: hits.map((hit) => hit.title ?? ""),
    }));

  it("answers a two-word query with few full-text hits from its close candidates", async () => {
    await rolledBack(async (tx) => {
      // "Quasar" in a tenth of 1,500 titles, "Vellichor" in every thirteenth: a dozen hold both. And
      // 20 candidates that are not close ("Quasarr", 0.35 by word, 0.32 whole).
      await tx.query(
        `insert into public.catalog_entries (domain, title, subtitle, popularity)
           select 'music', case when g % 10 = 0 then 'Quasar ' else '' end
                    || substr(md5(g::text), 1, 7) || case when g % 13 = 0 then ' Vellichor' else '' end,
                  'Artist ' || (g % 89), g % 12
             from generate_series(1, 1500) g
           union all
           select 'music', 'Quasarr', null, 10 from generate_series(1, 20) g`,
      );
      const [far] = await tx.query<{ count: number }>(
        `select count(*)::int as count from public.catalog_entries c
          where extensions.similarity(c.search_text, $1) >= 0.2
            and extensions.word_similarity($1, c.search_text) < 0.45 and extensions.similarity(c.search_text, $1) < 0.45
            and not c.search_vector @@ plainto_tsquery('simple', $1)`,
        ["quasar vellichor"],
      );
      expect(far?.count).toBeGreaterThanOrEqual(20);
      const seen = await pagesOf(tx, "quasar vellichor", 3);
      expect(seen.map((page) => page.ranked)).toEqual(["close", "close", "close"]);
      // The dozen holding both words first, then titles with the longer word (its trigrams are most
      // of the query's); a title with only "Quasar" (0.41) is not a candidate at the word threshold.
      expect(seen[0]?.titles.slice(0, 11).every((title) => /^Quasar .* Vellichor$/.test(title))).toBe(true);
      expect(seen[2]?.titles.every((title) => title.endsWith(" Vellichor") && !title.startsWith("Quasar"))).toBe(true);
      // A typo of the rarer word: no full-text hit holds it.
      const typo = await pagesOf(tx, "vellihcor", 2);
      expect(typo.map((page) => page.ranked)).toEqual(["close", "close"]);
    });
  });

  it("ranks the rest and merges it when the close page's edge could still be passed", async () => {
    await rolledBack(async (tx) => {
      // For "quasar xylophon": 30 close candidates (word similarity 0.5, popularity adding at most
      // 0.04), so the close page's edge leaves room below it; and 40 that are not close (0.4375 both
      // ways) whose popularity (6.25 more) brings them to the same five scores: the pages interleave
      // the two kinds, ties ordered by id across the merge and the cursor.
      await tx.query(
        `insert into public.catalog_entries (domain, title, popularity)
           select 'music', 'Xylophones', g % 5 from generate_series(1, 30) g
           union all
           select 'music', 'Quasar', g % 5 + 6.25 from generate_series(1, 40) g`,
      );
      const seen = await pagesOf(tx, "quasar xylophon", 4);
      expect(seen.map((page) => page.ranked)).toEqual(["far", "far", "far", "far"]);
      expect(new Set(seen[0]?.titles)).toEqual(new Set(["Xylophones", "Quasar"]));
      expect(new Set(seen[3]?.titles)).toEqual(new Set(["Xylophones", "Quasar"]));
      expect(seen.flatMap((page) => page.titles)).toHaveLength(70);
    });
  });
});
