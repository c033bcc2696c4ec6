import { describe, expect, it } from "vitest";
import type { Transaction } from "@/lib/db";
import { searchCatalog } from "@/lib/catalog/search-query";
import { rolledBack } from "../support/rolled-back";
import { pagesAsFullRanking } from "./support/full-ranking";
import { ownLetters } from "./support/own-word";

/**
 * pg_trgm's functions counted: the two a score calls, and the two behind the `%` and `<%` operators.
 * (ts_rank_cd is built in, and Postgres counts no built-in function's calls.)
 */
const COUNTED = ["similarity", "word_similarity", "similarity_op", "word_similarity_op"] as const;
type Calls = Record<(typeof COUNTED)[number], number>;

/** Calls of each so far in this transaction (track_functions = all, which a superuser may set). */
async function trigramCalls(tx: Transaction): Promise<Calls> {
  const rows = await tx.query<{ name: string; calls: number }>(
    `select name,
            coalesce(pg_stat_get_xact_function_calls(('extensions.' || name || '(text, text)')::regprocedure), 0)::int
              as calls
       from unnest($1::text[]) name`,
    [COUNTED],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.calls])) as Calls;
}

/** The calls `search` makes. */
async function callsOf(tx: Transaction, search: () => Promise<unknown>): Promise<Calls> {
  await tx.query("set local track_functions = 'all'");
  const before = await trigramCalls(tx);
  await search();
  const after = await trigramCalls(tx);
  return Object.fromEntries(COUNTED.map((name) => [name, after[name] - before[name]])) as Calls;
}

/** Each hit's similarity as the score's functions give it: the title's or the word similarity, the better. */
async function expectSimilarities(tx: Transaction, query: string, hits: { id: string; similarity: number }[]) {
  const rows = await tx.query<{ id: string; similarity: number }>(
    `select id, greatest(extensions.similarity(c.search_title, q.t), extensions.word_similarity(q.t, c.search_text))
                  as similarity
       from public.catalog_entries c,
            (select app_private.catalog_normalize($1) as t) q
      where c.id = any($2::uuid[])`,
    [query, hits.map((hit) => hit.id)],
  );
  const expected = new Map(rows.map((row) => [row.id, row.similarity]));
  for (const hit of hits) expect(hit.similarity, hit.id).toBe(Number(expected.get(hit.id)));
}

/**
 * What a candidate's score costs (lib/catalog/search-sql.ts, `scored`): one whole-text and one word
 * comparison each, which a title candidate's trigram test reads rather than comparing again, while
 * the title's similarity, which only the answer shows, is computed for the page's rows alone.
 * Counted by Postgres's own function statistics, on both databases; the rows live in a transaction
 * rolled back at the end.
 */
describe("search, what a candidate's score costs", () => {
  const candidates = 150;
  const limit = 5;

  it("compares a title candidate's trigrams once, and the title's similarity for the page's rows alone", async () => {
    // Titles going on from a prefix of their own, inside a word: title candidates, none a full-text hit.
    const own = ownLetters(6, "lanternoie");
    await rolledBack(async (tx) => {
      await tx.query(
        `insert into public.catalog_entries (domain, title, subtitle, popularity)
           select 'music', $1 || 'orn' || g, 'Artist ' || g, 5 from generate_series(1, $2::int) g`,
        [own, candidates],
      );
      let page: Awaited<ReturnType<typeof searchCatalog>> | undefined;
      const calls = await callsOf(tx, async () => {
        page = await searchCatalog(tx, { query: own, limit });
      });
      expect(page?.ranked).toBe("words");
      expect(page?.hits).toHaveLength(limit);
      // Every candidate scored once: a word comparison and a whole-text one each.
      expect(calls.word_similarity).toBe(candidates);
      // Then the title's for the page's rows and the one that says another page follows. Computed
      // for every candidate, as before, this was twice the word comparisons.
      expect(calls.similarity).toBe(candidates + limit + 1);
      // The trigram test reads the scores: the operators run only in the probe asking whether the
      // query has a title candidate, which stops at its first row. Before, each candidate was tested
      // by them first (151 word comparisons in all).
      expect(calls).toMatchObject({ word_similarity_op: 1, similarity_op: 0 });
      await expectSimilarities(tx, own, page?.hits ?? []);
      // And the answer is the full ranking's.
      await pagesAsFullRanking(tx, own, { pages: 2, limit });
    });
  });

  it("computes the title's similarity for the page's rows among a typo's close candidates", async () => {
    // A typo of a word of its own: no full-text hit, no title range, every entry close by words.
    const own = ownLetters(6, "lanternoie");
    const query = `${own}lantren`;
    await rolledBack(async (tx) => {
      await tx.query(
        `insert into public.catalog_entries (domain, title, subtitle, popularity)
           select 'music', $1 || 'lantern ' || g, 'Artist ' || g, g % 6 from generate_series(1, $2::int) g`,
        [own, candidates],
      );
      let page: Awaited<ReturnType<typeof searchCatalog>> | undefined;
      const calls = await callsOf(tx, async () => {
        page = await searchCatalog(tx, { query, limit });
      });
      expect(page?.ranked).toBe("close");
      expect(page?.hits).toHaveLength(limit);
      expect(calls.word_similarity).toBe(candidates);
      // 300 before: the title's similarity was computed for every close candidate.
      expect(calls.similarity).toBe(candidates + limit + 1);
      await expectSimilarities(tx, query, page?.hits ?? []);
      await pagesAsFullRanking(tx, query, { pages: 2, limit });
    });
  });
});
