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
 */
const SEARCH = `
  with q as (select app_private.catalog_normalize($1) as t),
  qq as (select t, plainto_tsquery('simple'::regconfig, t) as tsq from q),
  hits as (
    select c.id as song_id, c.id, c.domain, c.kind, c.title, c.subtitle, c.creators, c.artwork, c.release_date,
           case when c.search_title = qq.t then 'exact' when c.search_title like qq.t || '%' then 'prefix' else 'fuzzy' end as match,
           greatest(m.title_sim, m.word_sim) as similarity,
           round((
             greatest(m.text_sim, m.word_sim)
             + 0.3 * ts_rank_cd(c.search_vector, qq.tsq)
             + case when c.search_title = qq.t then 1.0 when c.search_title like qq.t || '%' then 0.3 else 0 end
             + 0.01 * least(c.popularity, 10)
           )::numeric, 6) as score
      from public.catalog_entries c
      cross join qq
      -- Each trigram comparison once per candidate (offset 0 keeps the planner from inlining
      -- them back into every place they are used); they dominate the query's cost.
      cross join lateral (
        select extensions.similarity(c.search_title, qq.t) as title_sim,
               extensions.similarity(c.search_text, qq.t) as text_sim,
               extensions.word_similarity(qq.t, c.search_text) as word_sim
        offset 0
      ) m
     where ($2::text is null or c.domain = $2)
       -- The full-text test first: it is the cheapest, and a row it accepts skips the others.
       and (c.search_vector @@ qq.tsq
            or qq.t operator(extensions.<%) c.search_text
            or c.search_text operator(extensions.%) qq.t)
  )
  select song_id, id, domain, kind, title, subtitle, creators, artwork, release_date, match, similarity, score::text as score
    from hits
   where $4::numeric is null or score < $4::numeric or (score = $4::numeric and id > $5::uuid)
   order by score desc, id
   limit $3`;

export async function searchCatalog(
  tx: Queryable,
  options: { query: string; domain?: string | null; limit: number; after?: string },
): Promise<{ hits: SearchHit[]; hasMore: boolean; nextCursor: string | null }> {
  const cursor = options.after ? decodeSearchCursor(options.after) : null;
  // Transaction-local: loose enough for one or two typos in a short title. And no sequential
  // scan: the planner prices a trigram comparison like an integer one, so on Postgres a scan of a
  // 50k catalog looked cheaper than the indexes while it computed every row's trigrams
  // (test/resolver/search-plan.test.ts, npm run bench).
  const [before] = await tx.query<{ seqscan: string }>(
    `select current_setting('enable_seqscan') as seqscan,
            set_config('pg_trgm.similarity_threshold', '0.2', true),
            set_config('pg_trgm.word_similarity_threshold', '0.45', true),
            set_config('enable_seqscan', 'off', true)`,
  );
  // The setting goes back in the same flush, for the caller's later statements (the resolver's).
  const [rows] = await Promise.all([
    tx.query<Row>(SEARCH, [options.query, options.domain ?? null, options.limit + 1, cursor?.score ?? null, cursor?.id ?? null]),
    tx.query("select set_config('enable_seqscan', $1, true)", [before?.seqscan ?? "on"]),
  ]);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const hasMore = rows.length > options.limit;
  return {
    hits: page.map((row) => ({ ...row, score: Number(row.score), similarity: Number(row.similarity) })),
    hasMore,
    nextCursor: hasMore && last ? encodeSearchCursor({ score: last.score, id: last.id }) : null,
  };
}
