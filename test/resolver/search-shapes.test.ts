import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { withSearchSettings, wordsShape } from "../../bench/explain";
import { rolledBack } from "../support/rolled-back";
import { pagesAsFullRanking } from "./support/full-ranking";

/**
 * app_private.search_catalog runs one WORDS statement per shape of query (lib/catalog/search-sql.ts):
 * one full-text word (its stored scores) or several (their full-text hits), with the title
 * candidates only when a probe finds any. Each shape must give the pages the full ranking gives,
 * and each page says which statement ranked it.
 * Words of their own (random letters), so no other test's entries take part. On both databases; the
 * rows live in a transaction rolled back at the end.
 */
describe("search, one statement per shape of query", () => {
  it("takes each shape and pages as the full ranking does", async () => {
    const own = Array.from(randomBytes(6), (byte) => String.fromCharCode(97 + (byte % 26))).join("");
    const word = `${own}lantern`;
    const alone = `${own}harbour`;
    await rolledBack(async (tx) => {
      await tx.query(
        `insert into public.catalog_entries (domain, title, subtitle, popularity)
           select 'music', 'Blue ' || $1 || ' ' || substr(md5(g::text), 1, 6), 'Artist ' || g, 0 from generate_series(1, 30) g
           union all
           -- Titles going on from the word inside it: title candidates for the word and its prefix. The
           -- plural outranks the full-text hits above (a title prefix's bonus), so the word's pages hold it.
           select 'music', $1 || 's', 'Artist 0', 10
           union all
           select 'music', $1 || 'fish ' || substr(md5(g::text), 1, 5), 'Artist ' || g, g % 7 from generate_series(1, 8) g
           union all
           select 'music', $1 || ' comet ' || substr(md5(g::text), 1, 4), 'Artist ' || g, g % 5 from generate_series(1, 12) g
           union all
           select 'music', $2 || ' ' || substr(md5(g::text), 1, 6), 'Artist ' || g, g % 3 from generate_series(1, 25) g`,
        [word, alone],
      );
      // `ranked`: which statement ranked each page (lib/catalog/search-sql.ts). Past a list's last
      // full-text hits, a page is the close candidates' ("close"), or those and the rest ("far").
      const cases = [
        { query: alone, shape: { oneWord: true, titles: false }, ranked: ["words", "words", "far"] },
        { query: word, shape: { oneWord: true, titles: true }, ranked: ["words", "words", "words"] },
        { query: word.slice(0, -3), shape: { oneWord: true, titles: true }, ranked: ["words", "words", "close"] },
        { query: `${word} co`, shape: { oneWord: false, titles: true }, ranked: ["words", "close", "close"] },
        { query: `${word} comet`, shape: { oneWord: false, titles: false }, ranked: ["words", "close", "close"] },
      ];
      await tx.query("savepoint settings");
      await withSearchSettings(tx);
      for (const { query, shape } of cases) expect(await wordsShape(tx, query), query).toEqual(shape);
      await tx.query("rollback to savepoint settings");
      const titles = new Map<string, string[]>();
      const rankedBy = new Map<string, (string | null)[]>();
      for (const { query } of cases) {
        const pages = await pagesAsFullRanking(tx, query, { pages: 3, limit: 10 });
        for (const [i, page] of pages.entries()) expect(page.hits.length, `${query}, page ${i}`).toBeGreaterThan(0);
        rankedBy.set(
          query,
          pages.map((page) => page.ranked),
        );
        titles.set(
          query,
          pages.flatMap((page) => page.hits.map((hit) => hit.title ?? "")),
        );
        expect(pages.length, `${query}: more than one page`).toBeGreaterThan(1);
      }
      for (const { query, ranked } of cases) expect(rankedBy.get(query), query).toEqual(ranked);
      // The plural, a title candidate, among full-text hits that score above 1.1 on either side of it.
      expect(titles.get(word)?.slice(0, 25)).toContain(`${word}s`);
    });
  });
});
