import type { z } from "zod";
import type { searchHitSchema } from "../../registry/operations/catalog-entry.ts";
import type { Queryable } from "../db/index.ts";
import { decodeSearchCursor, encodeSearchCursor } from "./search-cursor.ts";

/**
 * A hit as the registry declares it, plus the trigram similarity of the query to the entry (0..1),
 * which the resolver uses as its confidence for phrases and GET /search leaves out.
 */
export type SearchHit = z.infer<typeof searchHitSchema> & { similarity: number };

interface Row extends Omit<SearchHit, "score" | "similarity"> {
  score: string;
  similarity: number | string;
}

/**
 * Ranked catalog search, the same for GET /search and phrase resolves. Candidates come from the
 * trigram index (typo-tolerant) or the full-text index; the score adds trigram similarity, the
 * full-text rank and a bonus for an exact or prefix title match, rounded so the cursor's keyset
 * compares exactly. Query and document share app_private.catalog_normalize (unaccent + lower).
 * `one_word`: the query is a single full-text word, whose hits' scores are kept in
 * catalog_search_words (same formula, by trigger).
 *
 * SEARCH_WORDS runs as a generic plan, where $1 is no constant: the normalisation, a function with
 * its own search_path, ran at every place the query text is used (the title tests of each of the
 * page's rows among them), and a sub-select runs it once (a common word's search: about 15% less
 * database CPU). The other statements run as custom plans, which fold it into a constant; a
 * sub-select there would stop that (13% slower to rank 2,000 candidates).
 */
const head = (plan: "generic" | "custom") => `
  with q as not materialized (select ${plan === "generic" ? "(select app_private.catalog_normalize($1))" : "app_private.catalog_normalize($1)"} as t),
  qq as not materialized (
    select t, tsq, '% ' || t || ' %' as phrase, tsq::text = quote_literal(t) as one_word
      from (select t, plainto_tsquery('simple'::regconfig, t) as tsq from q) as parsed
  )`;

const COLUMNS = "c.id as song_id, c.id, c.domain, c.kind, c.title, c.subtitle, c.creators, c.artwork, c.release_date";
const MATCH =
  "case when c.search_title = qq.t then 'exact' when c.search_title like qq.t || '%' then 'prefix' else 'fuzzy' end as match";

/** Scores a candidate set (rows of catalog_entries, with qq in scope). */
const scored = (candidates: string) => `
    select ${COLUMNS}, ${MATCH},
           greatest(m.title_sim, m.word_sim) as similarity,
           round((
             greatest(m.text_sim, m.word_sim)
             + 0.3 * ts_rank_cd(c.search_vector, qq.tsq)
             + case when c.search_title = qq.t then 1.0 when c.search_title like qq.t || '%' then 0.3 else 0 end
             + 0.01 * least(c.popularity, 10)
           )::numeric, 6) as score
      from (${candidates}) c
      cross join qq
      -- A document holding the query's words in a row has word similarity 1 exactly (every query
      -- trigram is in that extent), so it skips the trigram comparisons, which dominate the cost.
      -- Otherwise each comparison runs once per candidate (offset 0 keeps the planner from
      -- inlining them back into every place they are used).
      cross join lateral (select (' ' || c.search_text || ' ') like qq.phrase as whole offset 0) p
      cross join lateral (
        select case when p.whole then 1::real else extensions.similarity(c.search_title, qq.t) end as title_sim,
               case when p.whole then 1::real else extensions.similarity(c.search_text, qq.t) end as text_sim,
               case when p.whole then 1::real else extensions.word_similarity(qq.t, c.search_text) end as word_sim
        offset 0
      ) m`;

// Ordered by the numeric score, as the cursor compares it: a bare "score" would name the text column.
const PAGE = `
  select song_id, id, domain, kind, title, subtitle, creators, artwork, release_date, match, similarity, score::text as score
    from hits
   where $4::numeric is null or score < $4::numeric or (score = $4::numeric and id > $5::uuid)
   order by hits.score desc, id
   limit $3`;

/** Every candidate: the full-text test first, it is the cheapest and a row it accepts skips the others. */
const SEARCH_ALL = `${head("custom")},
  hits as (${scored(`
    select c.* from public.catalog_entries c, qq
     where ($2::text is null or c.domain = $2)
       and (c.search_vector @@ qq.tsq
            or qq.t operator(extensions.<%) c.search_text
            or c.search_text operator(extensions.%) qq.t)`)})
  ${PAGE}`;

/**
 * Full-text hits (a one-word query's from catalog_search_words, already scored and ordered: only
 * the page is read), plus the typo-tolerant candidates whose title starts with the query and goes
 * on inside a word ("midn" → "Midnight"), found by range on the "C"-collated title index, which
 * works with a bound parameter too. Normalised text is letters, digits and single spaces, so that
 * range is [query + "!", query + U+10FFFF): a title equal to the query or going on with a space
 * holds the query's words, a full-text hit. Their trigram test comes after the range (offset 0):
 * as an index condition it would read the trigram index for a common word's thousands of rows to
 * keep the few the range holds.
 */
const SEARCH_WORDS = `${head("generic")},
  stored as (
    select w.entry_id, w.similarity, w.score from public.catalog_search_words w, qq
     where qq.one_word and w.word = qq.t and ($2::text is null or w.domain = $2)
       and ($4::numeric is null or w.score < $4::numeric or (w.score = $4::numeric and w.entry_id > $5::uuid))
     order by w.score desc, w.entry_id
     limit $3
  ),
  hits as (
    select ${COLUMNS}, ${MATCH}, s.similarity, s.score
      from stored s join public.catalog_entries c on c.id = s.entry_id cross join qq
    union all
    ${scored(`
      select c.* from public.catalog_entries c, qq
       where not qq.one_word and ($2::text is null or c.domain = $2) and c.search_vector @@ qq.tsq
      union all
      select c.* from (
        select c.* from public.catalog_entries c, qq
         where ($2::text is null or c.domain = $2) and qq.t <> ''
           and (c.search_title collate "C") >= qq.t || '!' and (c.search_title collate "C") < qq.t || chr(1114111)
           and not coalesce(c.search_vector @@ qq.tsq, false)
        offset 0
      ) c, qq
       where qq.t operator(extensions.<%) c.search_text or c.search_text operator(extensions.%) qq.t`)}
  )
  ${PAGE}`;

/**
 * The candidates outside SEARCH_WORDS (neither a full-text hit nor in its title range) that come
 * close enough to the query by trigrams: with both trigram thresholds raised (by the statement
 * before it), the trigram index finds a handful of rows, not every one holding one of the query's
 * words.
 */
const SEARCH_NEAR = `${head("custom")},
  near as (
    select c.* from public.catalog_entries c, qq
     where ($2::text is null or c.domain = $2)
       and (qq.t operator(extensions.<%) c.search_text or c.search_text operator(extensions.%) qq.t)
       and not coalesce(c.search_vector @@ qq.tsq, false)
       and not (qq.t <> '' and (c.search_title collate "C") >= qq.t || '!'
                and (c.search_title collate "C") < qq.t || chr(1114111))
  ),
  hits as (${scored("select * from near")})
  ${PAGE}`;

/** The query's own trigram thresholds: loose enough for one or two typos in a short title. */
const SIMILARITY_THRESHOLD = 0.2;
const WORD_SIMILARITY_THRESHOLD = 0.45;
/** The most popularity adds to a score (10 × 0.01). */
const POPULARITY_MAX = 0.1;
/**
 * The most a candidate outside SEARCH_WORDS can score: similarity ≤ 1, full-text rank 0 (no
 * match), no title bonus (an exact title is a prefix), popularity ≤ 10 × 0.01.
 */
const OUTSIDE_WORDS_MAX_SCORE = 1 + POPULARITY_MAX;
/** Below the similarity an outside candidate needs, for the rounding of scores and of real similarities. */
const NEAR_MARGIN = 1e-4;

const byRank = (a: Row, b: Row) => Number(b.score) - Number(a.score) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function searchCatalog(
  tx: Queryable,
  options: {
    query: string;
    domain?: string | null;
    limit: number;
    after?: string;
    /** Nothing follows in the transaction (GET /search): it may end with the search's last statement. */
    last?: boolean;
  },
): Promise<{ hits: SearchHit[]; hasMore: boolean; nextCursor: string | null }> {
  const cursor = options.after ? decodeSearchCursor(options.after) : null;
  // Transaction-local: loose enough for one or two typos in a short title. And no sequential
  // scan: the planner prices a trigram comparison like an integer one, so on Postgres a scan of a
  // 50k catalog looked cheaper than the indexes while it computed every row's trigrams
  // (test/resolver/search-plan.test.ts, npm run bench). Nor parallel workers: from some hundred
  // thousand entries the planner gathers the candidate branches from two workers, and starting
  // them cost 30 to 80 ms a search for a fraction of a millisecond of work (a million entries:
  // 105 ms a search, 1 ms without; bench/results/2026-11-28-search-million.md).
  const params = [options.query, options.domain ?? null, options.limit + 1, cursor?.score ?? null, cursor?.id ?? null];
  // A page (and the row telling whether another follows) made of full-text hits all scoring above
  // anything outside them is the page the full candidate set gives: a common word answers from
  // its full-text hits without comparing trigrams for thousands of near-miss rows. Otherwise
  // (typos, rare words, the tail of a long list) the full set is ranked. Settings and the first
  // query leave in one flush.
  const [[before], words] = await Promise.all([
    tx.query<{ seqscan: string; plans: string; parallel: string }>(
      `select current_setting('enable_seqscan') as seqscan, current_setting('plan_cache_mode') as plans,
              current_setting('max_parallel_workers_per_gather') as parallel,
              set_config('pg_trgm.similarity_threshold', '${SIMILARITY_THRESHOLD}', true),
              set_config('pg_trgm.word_similarity_threshold', '${WORD_SIMILARITY_THRESHOLD}', true),
              set_config('enable_seqscan', 'off', true),
              set_config('max_parallel_workers_per_gather', '0', true),
              set_config('plan_cache_mode', 'force_generic_plan', true)`,
    ),
    tx.query<Row>(SEARCH_WORDS, params),
  ]);
  const edge = words[options.limit];
  const complete = edge !== undefined && Number(edge.score) > OUTSIDE_WORDS_MAX_SCORE;
  // An outside candidate scores at most its better trigram similarity plus popularity's 0.1, so
  // one that can enter the page (score ≥ the edge's) has a similarity ≥ edge − 0.1. When that is
  // above the query's own thresholds ("midnight artist", whose full-text hits score about 1 while
  // every title with "artist" is a candidate), those few are found through the trigram index at
  // that threshold and merged with the page: the same page as the full ranking, without scoring
  // the tens of thousands of rows that hold one of the words.
  const near = edge && !complete ? Number(edge.score) - POPULARITY_MAX - NEAR_MARGIN : 0;
  const nearOnly = near > WORD_SIMILARITY_THRESHOLD && near > SIMILARITY_THRESHOLD;
  // The settings go back for the caller's later statements (the resolver's), plan_cache_mode
  // before the full query: a generic plan saves SEARCH_WORDS its planning (most of its cost), but
  // ranks the full set several times slower than a plan made for the query's value.
  const restorePlans = () =>
    tx.query(
      `select set_config('plan_cache_mode', $1, true)${nearOnly ? ", set_config('pg_trgm.similarity_threshold', $2, true), set_config('pg_trgm.word_similarity_threshold', $2, true)" : ""}`,
      nearOnly ? [before?.plans ?? "auto", String(near)] : [before?.plans ?? "auto"],
    );
  const rest = complete ? null : nearOnly ? SEARCH_NEAR : SEARCH_ALL;
  let rows = words;
  if (options.last) {
    // Nothing follows: only the next query's own settings go back, and that query ends the
    // transaction. A common word's search is two statements and a round trip shorter.
    if (rest) [, rows] = await Promise.all([restorePlans(), tx.queryLast<Row>(rest, params)]);
  } else {
    [, rows] = await Promise.all([
      restorePlans(),
      rest ? tx.query<Row>(rest, params) : words,
      tx.query(
        `select set_config('enable_seqscan', $1, true), set_config('max_parallel_workers_per_gather', $2, true),
                set_config('pg_trgm.similarity_threshold', '${SIMILARITY_THRESHOLD}', true),
                set_config('pg_trgm.word_similarity_threshold', '${WORD_SIMILARITY_THRESHOLD}', true)`,
        [before?.seqscan ?? "on", before?.parallel ?? "2"],
      ),
    ]);
  }
  if (rest === SEARCH_NEAR) rows = [...words, ...rows].sort(byRank).slice(0, options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const hasMore = rows.length > options.limit;
  return {
    hits: page.map((row) => ({ ...row, score: Number(row.score), similarity: Number(row.similarity) })),
    hasMore,
    nextCursor: hasMore && last ? encodeSearchCursor({ score: last.score, id: last.id }) : null,
  };
}
