import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Transaction } from "@/lib/db";
import { searchCatalog } from "@/lib/catalog/search-query";
import { rolledBack } from "../support/rolled-back";
import { pagesAsFullRanking } from "./support/full-ranking";

/** pg_trgm's functions counted: the two the score calls, and the two behind the `%` and `<%` operators. */
const COUNTED = ["similarity", "word_similarity", "similarity_op", "word_similarity_op"] as const;
type Calls = Record<(typeof COUNTED)[number], number>;

/** Calls of each so far in this transaction (track_functions = all). */
async function trigramCalls(tx: Transaction): Promise<Calls> {
  const rows = await tx.query<{ name: string; calls: number }>(
    `select name, coalesce(pg_stat_get_xact_function_calls(('extensions.' || name || '(text, text)')::regprocedure), 0)::int
              as calls
       from unnest($1::text[]) name`,
    [COUNTED],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.calls])) as Calls;
}

/**
 * What a candidate's score costs (lib/catalog/search-sql.ts, `scored`): one whole-text and one word
 * comparison each, which a title candidate's trigram test reads rather than comparing again, while
 * the title's similarity, which only the answer shows, is computed for the page's rows alone. Counted by Postgres's own function statistics, on both databases; the rows
 * live in a transaction rolled back at the end.
 */
describe("search, what a candidate's score costs", () => {
  it("compares a title candidate's trigrams once, and the title's similarity for the page's rows alone", async () => {
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
      const calls = Object.fromEntries(COUNTED.map((name) => [name, after[name] - before[name]])) as Calls;
      // Every candidate scored once: a word comparison and a whole-text one each.
      expect(calls.word_similarity).toBe(candidates);
      // Then the title's for the page's rows and the one that says another page follows. Computed
      // for every candidate, as before, this was twice the word comparisons.
      expect(calls.similarity).toBe(candidates + limit + 1);
      // The trigram test on the scores: the operators run only in the probe asking whether the
      // query has a title candidate, which stops at the first. Before, each candidate was tested
      // by them first (150 word comparisons more).
      expect(calls.word_similarity_op + calls.similarity_op).toBeLessThanOrEqual(2);
      // And the answer is the full ranking's, similarities included.
      await pagesAsFullRanking(tx, own, { pages: 2, limit });
    });
  });
});
