import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Transaction } from "@/lib/db";
import { searchCatalog } from "@/lib/catalog/search-query";
import { rolledBack } from "../support/rolled-back";
import { pagesAsFullRanking } from "./support/full-ranking";

/** Calls of pg_trgm's similarity and word_similarity so far in this transaction (track_functions = all). */
async function trigramCalls(tx: Transaction): Promise<{ similarity: number; wordSimilarity: number }> {
  const [row] = await tx.query<{ similarity: number; word_similarity: number }>(
    `select coalesce(pg_stat_get_xact_function_calls('extensions.similarity(text, text)'::regprocedure), 0)::int as similarity,
            coalesce(pg_stat_get_xact_function_calls('extensions.word_similarity(text, text)'::regprocedure), 0)::int
              as word_similarity`,
  );
  return { similarity: row?.similarity ?? 0, wordSimilarity: row?.word_similarity ?? 0 };
}

/**
 * What a candidate's score costs (lib/catalog/search-sql.ts, `scored`): one whole-text and one word
 * comparison each, while the title's similarity, which only the answer shows, is computed for the
 * page's rows alone. Counted by Postgres's own function statistics, on both databases; the rows
 * live in a transaction rolled back at the end.
 */
describe("search, what a candidate's score costs", () => {
  it("computes the title's similarity for the page's rows, not for every candidate", async () => {
    // Titles going on from a prefix of their own, inside a word: title candidates, none a full-text hit.
    const own = Array.from(randomBytes(5), (byte) => String.fromCharCode(97 + (byte % 26))).join("");
    const candidates = 150;
    const limit = 5;
    await rolledBack(async (tx) => {
      await tx.query(
        `insert into public.catalog_entries (domain, title, subtitle, popularity)
           select 'music', $1 || 'orn' || g, 'Artist ' || g, 5 from generate_series(1, $2::int) g`,
        [own, candidates],
      );
      await tx.query("set local track_functions = 'all'");
      const before = await trigramCalls(tx);
      const page = await searchCatalog(tx, { query: own, limit });
      const after = await trigramCalls(tx);
      expect(page.ranked).toBe("words");
      expect(page.hits).toHaveLength(limit);
      const wordSimilarity = after.wordSimilarity - before.wordSimilarity;
      const similarity = after.similarity - before.similarity;
      // Every candidate scored once: a word comparison and a whole-text one each.
      expect(wordSimilarity).toBe(candidates);
      // Then the title's for the page's rows and the one that says another page follows. Computed
      // for every candidate, as before, this was twice the word comparisons.
      expect(similarity).toBe(candidates + limit + 1);
      // And the answer is the full ranking's, similarities included.
      await pagesAsFullRanking(tx, own, { pages: 2, limit });
    });
  });
});
