/**
 * Ranked catalog search as one store function, app_private.search_catalog, generated from the SQL
 * below into a migration (scripts/build-catalog-search.ts; test/resolver/search-function.test.ts
 * fails while that file is stale). Candidates come from the trigram index (typo-tolerant) or the
 * full-text index; the score adds trigram similarity, the full-text rank and a bonus for an exact
 * or prefix title match, rounded so the cursor's keyset compares exactly. Query and document share
 * app_private.catalog_normalize (unaccent + lower). `one_word`: the query is a single full-text
 * word, whose hits' scores are kept in catalog_search_words (same formula, by trigger).
 *
 * One function, not statements sent in turn: a search is one round trip whichever way it ranks
 * (it was two to four: the planner's settings, the stored scores, the ranking that followed, and
 * the commit), and the settings live in the function's SET clauses, which Postgres gives back when
 * it returns. $1 query, $2 domain (null: any), $3 page size + 1 (the extra row says whether another
 * page follows), $4 and $5 the cursor's score and id; in the statements, $6 to $9 the query as the
 * function computed it (QUERY_PARAMS) and, in NEAR and CLOSE, $10 WORDS's rows (in FAR, CLOSE's).
 */

/** The query's own trigram thresholds: loose enough for one or two typos in a short title. */
const SIMILARITY_THRESHOLD = 0.2;
const WORD_SIMILARITY_THRESHOLD = 0.45;
/** The most popularity adds to a score (10 × 0.01). */
const POPULARITY_MAX = 0.1;
/**
 * The most a candidate outside WORDS can score: similarity ≤ 1, full-text rank 0 (no match), no
 * title bonus (an exact title is a prefix), popularity ≤ 10 × 0.01.
 */
const OUTSIDE_WORDS_MAX_SCORE = 1 + POPULARITY_MAX;
/** Below the similarity an outside candidate needs, for the rounding of scores and of real similarities. */
const NEAR_MARGIN = 1e-4;

/** The composite every statement of the search answers, in this order. */
export const HIT_TYPE = "app_private.catalog_search_hit";
const HIT_COLUMNS = [
  ["song_id", "uuid"],
  ["id", "uuid"],
  ["domain", "text"],
  ["kind", "text"],
  ["title", "text"],
  ["subtitle", "text"],
  ["creators", "jsonb"],
  ["artwork", "jsonb"],
  ["release_date", "text"],
  ["match", "text"],
  ["similarity", "real"],
  ["score", "numeric"],
  // Which statement ranked the page: "words" (stored scores and full-text hits), "near" (those and
  // the candidates close enough by trigrams to reach the page), "close" (those and the candidates at
  // the query's own word threshold), "far" (the close page and every other candidate) or "all"
  // (every candidate, p_full_ranking).
  ["ranked", "text"],
] as const;
const HIT_NAMES = HIT_COLUMNS.map(([name]) => name).join(", ");

/**
 * app_private.catalog_normalize's own expression (20261122030000_extend_catalog_entries.sql), for
 * `value`: the function computes its query with it rather than by calling the normalisation. That
 * is a SQL function with a SET clause, which is never inlined, and PL/pgSQL evaluates a call in an
 * expression state that lives one transaction, so the body was parsed and planned again in every
 * search: a sixth of its database time (docs/benchmark.md). test/resolver/search-function.test.ts
 * checks that this is the stored function's body.
 */
export const normalizedSql = (value: string) =>
  `btrim(regexp_replace(lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(${value}, ''))), '[^[:alnum:]]+', ' ', 'g'))`;

/**
 * The query as each statement reads it (qq): normalised text, its full-text query, the pattern of
 * its words in a row, whether it is one full-text word. The function computes them once and hands
 * them in ($6 to $9 through EXECUTE; its own variables in WORDS, which it runs as a generic plan).
 * Computed inside each statement they were a call of the normalisation (a function with its own
 * search_path) and of plainto_tsquery at every place the text is used: in WORDS's generic plan,
 * where nothing is folded into a constant, a dozen InitPlans, half of its 0.6 ms on a common word.
 */
const QUERY_VALUE_SPEC = [
  { key: "t", name: "v_t", type: "text", expression: (query: string) => normalizedSql(query) },
  { key: "tsq", name: "v_tsq", type: "tsquery", expression: () => "plainto_tsquery('simple'::regconfig, v_t)" },
  { key: "oneWord", name: "v_one_word", type: "boolean", expression: () => "v_tsq::text = quote_literal(v_t)" },
  { key: "phrase", name: "v_phrase", type: "text", expression: () => "'% ' || v_t || ' %'" },
] as const;
type QueryRefs = Record<(typeof QUERY_VALUE_SPEC)[number]["key"], string>;
const queryRefs = (ref: (value: (typeof QUERY_VALUE_SPEC)[number], i: number) => string) =>
  Object.fromEntries(QUERY_VALUE_SPEC.map((value, i) => [value.key, ref(value, i)])) as QueryRefs;
/** In the statements: $6 to $9, after the five parameters every statement takes. */
const QUERY_PARAMS = queryRefs((_, i) => `$${6 + i}`);
/** In the function: its variables, each computed from those before it (`query` the raw text). */
const QUERY_VARIABLES = queryRefs(({ name }) => name);
/** Their names, in order, as QUERY_VALUES's row and the function's declarations give them. */
export const QUERY_VALUE_NAMES = QUERY_VALUE_SPEC.map(({ name }) => name);
/** The four from $1, in one row, for explaining the statements alone. */
export const QUERY_VALUES = `select * from ${QUERY_VALUE_SPEC.map(
  ({ name, expression }) => `lateral (select ${expression("$1::text")} as ${name}) ${name}_`,
)
  .join(", ")
  .replace(/^lateral /, "")}`;
/** The statements' parameter types: the five every statement takes, then the query's values. */
export const PARAM_TYPES = ["text", "text", "integer", "numeric", "uuid", ...QUERY_VALUE_SPEC.map(({ type }) => type)];
const head = (q: QueryRefs) => `
  with qq as not materialized (
    select ${q.t}::text as t, ${q.tsq}::tsquery as tsq, ${q.phrase}::text as phrase, ${q.oneWord}::boolean as one_word
  )`;

const COLUMNS = "c.id as song_id, c.id, c.domain, c.kind, c.title, c.subtitle, c.creators, c.artwork, c.release_date";
const MATCH =
  "case when c.search_title = qq.t then 'exact' when c.search_title like qq.t || '%' then 'prefix' else 'fuzzy' end as match";

/**
 * Scores a candidate set (rows of catalog_entries, with qq in scope).
 * - `fullText`: whether the set may hold full-text hits. One that holds none (the title range, the
 *   outside candidates) leaves out ts_rank_cd: a document the query does not match has no cover, so
 *   its rank is 0 (plainto_tsquery writes no negation), and a float8 sum plus 0 is the same sum.
 *   (The catalog's trigger sets every entry's search_vector, so no rank is NULL.)
 * - `keep`: a test on the similarities computed (m), for a set that has not had its trigram test.
 * The similarity shown with a hit (the title's or the word similarity, the better) is left to the
 * page (SIMILARITY), which computes it for its rows alone: nothing ranks by it, and it was a trigram
 * comparison for every candidate.
 */
const scored = (candidates: string, fullText: boolean, keep?: string) => `
    select ${COLUMNS}, ${MATCH},
           null::real as similarity, c.search_title, m.word_sim,
           round((
             greatest(m.text_sim, m.word_sim)${fullText ? "\n             + 0.3 * ts_rank_cd(c.search_vector, qq.tsq)" : ""}
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
        select case when p.whole then 1::real else extensions.similarity(c.search_text, qq.t) end as text_sim,
               case when p.whole then 1::real else extensions.word_similarity(qq.t, c.search_text) end as word_sim
        offset 0
      ) m${keep ? `\n     where ${keep}` : ""}`;

/**
 * A page row's similarity: the stored one, or the title's trigram similarity or the word
 * similarity, the better (a document holding the query's words in a row has word similarity 1, and
 * no similarity is above 1, so that needs no case of its own).
 */
const SIMILARITY =
  "coalesce(h.similarity, greatest(extensions.similarity(h.search_title, qq.t), h.word_sim)) as similarity";

/** The page of `hits` after the cursor, its rows' similarity computed once the page is taken. */
const page = (ranked: string) => `
  select ${HIT_COLUMNS.slice(0, -1)
    .map(([name]) => (name === "similarity" ? SIMILARITY : `h.${name}`))
    .join(", ")}, '${ranked}'::text as ranked
    from (
      select * from hits
       where $4::numeric is null or score < $4::numeric or (score = $4::numeric and id > $5::uuid)
       order by hits.score desc, id
       limit $3
    ) h
    cross join qq
   order by h.score desc, h.id`;

/** Every candidate: the full-text test first, it is the cheapest and a row it accepts skips the others. */
export const SEARCH_ALL = `${head(QUERY_PARAMS)},
  hits as (${scored(
    `
    select c.* from public.catalog_entries c, qq
     where ($2::text is null or c.domain = $2)
       and (c.search_vector @@ qq.tsq
            or qq.t operator(extensions.<%) c.search_text
            or c.search_text operator(extensions.%) qq.t)`,
    true,
  )})
  ${page("all")}`;

/**
 * The typo-tolerant candidates whose title starts with the query and goes on inside a word ("midn"
 * → "Midnight"), found by range on the "C"-collated title index, which works with a bound parameter
 * too. Normalised text is letters, digits and single spaces, so that range is [query + "!", query +
 * U+10FFFF): a title equal to the query or going on with a space holds the query's words, a
 * full-text hit. Their trigram test comes after the range (offset 0): as an index condition it
 * would read the trigram index for a common word's thousands of rows to keep the few the range holds.
 */
const TITLE_RANGE = `
        select c.* from public.catalog_entries c, qq
         where ($2::text is null or c.domain = $2) and qq.t <> ''
           and (c.search_title collate "C") >= qq.t || '!' and (c.search_title collate "C") < qq.t || chr(1114111)
           and not coalesce(c.search_vector @@ qq.tsq, false)
        offset 0`;
/** The trigram test, at the thresholds the function has set: by word similarity, or by whole-text similarity. */
const TRIGRAM_CANDIDATE = "(qq.t operator(extensions.<%) c.search_text or c.search_text operator(extensions.%) qq.t)";
/** The title range's rows that pass the trigram test: the probe (SEARCH_TITLES) asks whether there is one. */
const TITLE_CANDIDATES = `
      select c.* from (${TITLE_RANGE}
      ) c, qq
       where ${TRIGRAM_CANDIDATE}`;
/**
 * The same test on a scored row's similarities (m), at the query's own thresholds: WORDS runs under
 * the function's SET clauses, before it sets any other (catalogSearchFunctionSql). Each operator
 * compares the same float4 similarity with its float8 threshold, and `<%` stops early only once the
 * threshold is reached, so its answer is the full computation's. A row holding the query's words in
 * a row has its similarities set to 1 without computing them, which they are (see `scored`). So
 * WORDS scores the title range and keeps these rows, rather than comparing each row's trigrams once
 * for the test and again for the score.
 */
const TRIGRAM_CANDIDATE_SCORED = `m.word_sim >= ${WORD_SIMILARITY_THRESHOLD}::float8 or m.text_sim >= ${SIMILARITY_THRESHOLD}::float8`;

/** Whether the query has any title candidate (TITLE_CANDIDATES): the function asks before WORDS. */
const titles = (q: QueryRefs) => `${head(q)}
  select exists (${TITLE_CANDIDATES}) as titles`;
export const SEARCH_TITLES = titles(QUERY_PARAMS);

/** Which WORDS statement a query takes: one full-text word or several; title candidates or none. */
export interface WordsShape {
  oneWord: boolean;
  titles: boolean;
}
const WORDS_SHAPES: WordsShape[] = [
  { oneWord: true, titles: true },
  { oneWord: true, titles: false },
  { oneWord: false, titles: true },
  { oneWord: false, titles: false },
];

/** The function's test for a shape, on its variables. */
const shapeTest = ({ oneWord, titles }: WordsShape) =>
  `${oneWord ? "" : "not "}v_one_word and ${titles ? "" : "not "}v_titles`;

/**
 * Full-text hits (a one-word query's from catalog_search_words, already scored and ordered: only
 * the page is read), plus the title candidates when the query has any. One statement per shape, so
 * each plan holds only the parts its query runs: starting a plan's executor costs for every node,
 * run or not, and the one statement with every part, for a common word that needed only its stored
 * scores, spent a fifth of the search's database time there (docs/benchmark.md).
 */
const words = (q: QueryRefs, shape: WordsShape) => {
  const fullTextHits = `
      select c.* from public.catalog_entries c, qq
       where ($2::text is null or c.domain = $2) and c.search_vector @@ qq.tsq`;
  const hits = [
    shape.oneWord
      ? `
    select ${COLUMNS}, ${MATCH}, s.similarity, null::text as search_title, null::real as word_sim, s.score
      from stored s join public.catalog_entries c on c.id = s.entry_id cross join qq`
      : scored(fullTextHits, true),
    shape.titles ? scored(TITLE_RANGE, false, TRIGRAM_CANDIDATE_SCORED) : null,
  ].filter(Boolean);
  const stored = `
  stored as (
    select w.entry_id, w.similarity, w.score from public.catalog_search_words w, qq
     where w.word = qq.t and ($2::text is null or w.domain = $2)
       and ($4::numeric is null or w.score < $4::numeric or (w.score = $4::numeric and w.entry_id > $5::uuid))
     order by w.score desc, w.entry_id
     limit $3
  ),`;
  return `${head(q)},${shape.oneWord ? stored : ""}
  hits as (${hits.join("\n    union all")}
  )
  ${page("words")}`;
};
/** WORDS for a query of this shape, as the function runs it ($1 to $9). */
export const searchWords = (shape: WordsShape) => words(QUERY_PARAMS, shape);

/**
 * Candidates outside WORDS (neither a full-text hit nor in its title range) that `condition` keeps,
 * merged with rows already ranked ($10) in the page's order, every row labelled `ranked`.
 */
const outside = (condition: string, ranked: string) => `
  select ${HIT_NAMES} from (
    select h.song_id, h.id, h.domain, h.kind, h.title, h.subtitle, h.creators, h.artwork, h.release_date,
           h.match, h.similarity, h.score, '${ranked}'::text as ranked
      from unnest($10::${HIT_TYPE}[]) h
    union all
    (${head(QUERY_PARAMS)},
      outside as (
        select c.* from public.catalog_entries c, qq
         where ($2::text is null or c.domain = $2)
           and ${condition}
           and not coalesce(c.search_vector @@ qq.tsq, false)
           and not (qq.t <> '' and (c.search_title collate "C") >= qq.t || '!'
                    and (c.search_title collate "C") < qq.t || chr(1114111))
      ),
      hits as (${scored("select * from outside", false)})
      ${page(ranked)})
  ) merged
  order by merged.score desc, merged.id
  limit $3`;

/**
 * The candidates outside WORDS that come close enough to the query by trigrams: with both trigram
 * thresholds raised (by the function, before it runs), the trigram index finds a handful of rows,
 * not every one holding one of the query's words. They are merged with WORDS's rows ($10).
 */
export const SEARCH_NEAR = outside(TRIGRAM_CANDIDATE, "near");

/**
 * The close candidates: SEARCH_NEAR at the query's own word threshold, the whole-text one raised to
 * it. What it leaves out scores below this plus popularity's 0.1, so a page whose edge is above that
 * is the full ranking's. SEARCH_FAR's single scan rests on the word threshold being the larger.
 */
export const CLOSE_THRESHOLD = WORD_SIMILARITY_THRESHOLD;
if (SIMILARITY_THRESHOLD > WORD_SIMILARITY_THRESHOLD) {
  throw new Error("the close candidates need the word threshold at least the whole-text one");
}
export const SEARCH_CLOSE = outside(TRIGRAM_CANDIDATE, "close");

/**
 * The rest of the full candidate set, when the close candidates' page did not clear that line: the
 * candidates at the query's own thresholds that are not close, merged with that page ($10). A close
 * candidate missing from the page has a page of better ones above it, so the two give the full
 * ranking's page without scoring the close ones again. A candidate that is not close is a
 * whole-text trigram match (a word match at the query's threshold is close), so one scan of the
 * index finds them all.
 */
// `::float8` states what Postgres does anyway with a float4 and a numeric constant, and what the
// operators do with their threshold: a candidate exactly at the line is close, never neither.
export const SEARCH_FAR = outside(
  `c.search_text operator(extensions.%) qq.t
           and extensions.word_similarity(qq.t, c.search_text) < ${CLOSE_THRESHOLD}::float8
           and extensions.similarity(c.search_text, qq.t) < ${CLOSE_THRESHOLD}::float8`,
  "far",
);
/** The similarity a candidate outside the page's rows needs to reach a page whose edge scores `edge` (0 when there is none). */
const nearThreshold = (edge: string) => `coalesce(${edge} - ${POPULARITY_MAX} - ${NEAR_MARGIN}, 0)`;
/** The same threshold as a number, for explaining NEAR as the function runs it (bench/explain.ts). */
export const nearThresholdOf = (edge: number) => edge - POPULARITY_MAX - NEAR_MARGIN;
/** Sets the trigram operators' thresholds for the rest of the call (the SET clauses restore them on return). */
const trigramThresholds = (similarity: string, word = similarity) =>
  `perform set_config('pg_trgm.similarity_threshold', ${similarity}, true),
            set_config('pg_trgm.word_similarity_threshold', ${word}, true);`;
/** An EXECUTE's parameters, from the function's: its five, the query's values, then `rows` ($10) if any. */
const statementArguments = (...rows: string[]) =>
  ["$1", "$2", "$3", "$4", "$5", ...QUERY_VALUE_NAMES, ...rows].join(", ");
/** The rows of a subquery aliased `alias`, as an array of hits in the page's order (none: empty). */
const hitArray = (alias: string, indent: string) =>
  `coalesce(array_agg((${HIT_COLUMNS.map(([name]) => `${alias}.${name}`).join(", ")})::${HIT_TYPE}
${indent}order by ${alias}.score desc, ${alias}.id), '{}')`;

/** The generated migrations' file names end so (lib/db/generated-migration.ts). */
export const CATALOG_SEARCH_SUFFIX = "_catalog_search_function.sql";

/**
 * The function. A page (and the row telling whether another follows) made of full-text hits all
 * scoring above anything outside them is the page the full candidate set gives: a common word
 * answers from its full-text hits without comparing trigrams for thousands of near-miss rows.
 * Otherwise an outside candidate scores at most its better trigram similarity plus popularity's
 * 0.1, so one that can enter the page (score ≥ the edge's, the extra row's) has a similarity ≥
 * edge − 0.1. When that is above the query's own thresholds ("midnight artist", whose full-text
 * hits score about 1 while every title with "artist" is a candidate), those few are found through
 * the trigram index at that threshold and merged with the page: the same page as the full ranking,
 * without scoring the tens of thousands of rows that hold one of the words. Otherwise (too few
 * full-text hits for a page, or hits scoring too low: several words seldom together, a typo, the
 * tail of a long list) the same bound is used the other way: the close candidates, at the query's
 * own word threshold, are ranked first, and when their page's edge is above that threshold plus
 * 0.1 it is the page; else the rest (SEARCH_FAR) is ranked and merged with it. At 100,000 entries
 * that took "midnight comet" from 190 to 78 ms of the database's CPU and a typo from 79 to 56, as
 * the full ranking rechecked every row with enough of the query's trigrams against the whole-text
 * threshold (docs/benchmark.md, 2026-11-29 late morning).
 * p_full_ranking ranks the full set directly, to compare.
 *
 * Planner settings, for its statements only (the SET clauses end with the call): no sequential
 * scan, as the planner prices a trigram comparison like an integer one, so a scan of a 50k catalog
 * looked cheaper than the indexes while it computed every row's trigrams; no parallel workers, as
 * from some hundred thousand entries starting them cost 30 to 80 ms a search for a fraction of a
 * millisecond of work (bench/results/2026-11-28-search-million.md); a generic plan for WORDS,
 * which saves it its planning, most of its cost (the others, through EXECUTE, are planned for the
 * query's value, several times faster for the full set).
 */
export function catalogSearchFunctionSql(): string {
  const types = HIT_COLUMNS.map(([name, type]) => `${name} ${type}`).join(", ");
  const signature = "text, text, integer, numeric, uuid, boolean";
  return `-- Generated by scripts/build-catalog-search.ts from lib/catalog/search-sql.ts; do not edit.
-- Members may call it: it runs as the caller (security invoker), so it reads the catalog under the
-- caller's row-level security, as the statements it replaces did.
drop function if exists app_private.search_catalog(${signature});
drop type if exists ${HIT_TYPE};
create type ${HIT_TYPE} as (${types});

create function app_private.search_catalog(
  p_query text, p_domain text, p_page_plus_one integer, p_after_score numeric, p_after_id uuid,
  p_full_ranking boolean default false
) returns setof ${HIT_TYPE}
language plpgsql volatile
set search_path = ''
set enable_seqscan = off
set max_parallel_workers_per_gather = 0
set plan_cache_mode = force_generic_plan
set pg_trgm.similarity_threshold = ${SIMILARITY_THRESHOLD}
set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}
as $search$
declare
${QUERY_VALUE_SPEC.map(({ name, type, expression }) => `  ${name} ${type} := ${expression("p_query")};`).join("\n")}
  v_titles boolean;
  v_words ${HIT_TYPE}[];
  v_edge numeric;
  v_near float8;
  v_close ${HIT_TYPE}[];
begin
  if not p_full_ranking then
    select p.titles into v_titles from (${titles(QUERY_VARIABLES)}) p;
${WORDS_SHAPES.map(
  (shape, i) => `    ${i === WORDS_SHAPES.length - 1 ? "else" : `${i === 0 ? "if" : "elsif"} ${shapeTest(shape)} then`}
      select ${hitArray("w", " ".repeat(32))}
        into v_words
        from (${words(QUERY_VARIABLES, shape)}) w;`,
).join("\n")}
    end if;
    v_edge := (v_words[$3]).score;
    if v_edge > ${OUTSIDE_WORDS_MAX_SCORE} then
      return query select * from unnest(v_words);
      return;
    end if;
    v_near := ${nearThreshold("v_edge")};
    if v_near > ${WORD_SIMILARITY_THRESHOLD} and v_near > ${SIMILARITY_THRESHOLD} then
      ${trigramThresholds("v_near::text")}
      return query execute $near$${SEARCH_NEAR}$near$ using ${statementArguments("v_words")};
      return;
    end if;
    ${trigramThresholds(`'${CLOSE_THRESHOLD}'`)}
    execute $close$select ${hitArray("n", " ".repeat(45))}
                     from (${SEARCH_CLOSE}) n$close$
       into v_close using ${statementArguments("v_words")};
    if ${nearThreshold("(v_close[$3]).score")} >= ${CLOSE_THRESHOLD} then
      return query select * from unnest(v_close);
      return;
    end if;
    ${trigramThresholds(`'${SIMILARITY_THRESHOLD}'`, `'${WORD_SIMILARITY_THRESHOLD}'`)}
    return query execute $far$${SEARCH_FAR}$far$ using ${statementArguments("v_close")};
    return;
  end if;
  return query execute $all$${SEARCH_ALL}$all$ using ${statementArguments()};
end $search$;
revoke all on function app_private.search_catalog(${signature}) from public;
grant execute on function app_private.search_catalog(${signature}) to authenticated, service_role;
`;
}
