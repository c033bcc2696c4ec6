import type { z } from "zod";
import { searchHitSchema } from "../../registry/operations/catalog-entry.ts";
import type { Queryable } from "../db/index.ts";
import { type Page, serializedPage } from "../http/pagination.ts";
import { decodeSearchCursor, encodeSearchCursor } from "./search-cursor.ts";

/**
 * A hit as the registry declares it, plus the trigram similarity of the query to the entry (0..1),
 * which the resolver uses as its confidence for phrases and GET /search leaves out.
 */
export type SearchHit = z.infer<typeof searchHitSchema> & { similarity: number };

/** Which candidate set ranked the page (lib/catalog/search-sql.ts). */
export type Ranked = "words" | "near" | "close" | "far" | "all";

interface Row extends Omit<SearchHit, "score" | "similarity"> {
  score: string;
  similarity: number | string;
  ranked: Ranked;
}

interface SearchOptions {
  query: string;
  domain?: string | null;
  limit: number;
  after?: string;
  /** Rank every candidate: the reference the short ways must equal (tests). */
  fullRanking?: boolean;
}

/** The store's search function, and its six parameters for one page (limit + 1 rows, to learn has_more). */
const SEARCH_CALL = "app_private.search_catalog($1, $2, $3::int, $4, $5, $6)";
function searchParams(options: SearchOptions): unknown[] {
  const cursor = options.after ? decodeSearchCursor(options.after) : null;
  return [
    options.query,
    options.domain ?? null,
    options.limit + 1,
    cursor?.score ?? null,
    cursor?.id ?? null,
    options.fullRanking ?? false,
  ];
}

// The score as text: the cursor's keyset compares it exactly.
const PAGE = `select song_id, id, domain, kind, title, subtitle, creators, artwork, release_date, match, similarity,
                     score::text as score, ranked
                from ${SEARCH_CALL}`;

/** A hit as GET /search answers it: the registry's fields, in its order, the score a number. */
const HIT_COLUMNS = Object.keys(searchHitSchema.shape)
  .map((field) => (field === "score" ? "s.score::float8 as score" : `s.${field}`))
  .join(", ");

/**
 * The same search as one page of JSON text, for GET /search and its tools: the database writes the
 * hits as the answer's compact JSON (as a list's page, lib/http/pagination.ts), which REST, invoke
 * and MCP send on as it is. Taking 51 rows apart and serialising them again had cost the server
 * about a quarter of its CPU a search; the database spends less than that on writing them
 * (docs/benchmark.md). The function's rows are numbered in the order it ranked them, and the page
 * keeps it. The score goes out as a float8, the number the rows answer (the cursor keeps its exact text).
 */
const SEARCH_PAGE = `select coalesce(array_to_json(array_agg(r order by s.ordinality) filter (where s.ordinality < $3::int)), '[]')::text as page,
         count(*) = $3::int as has_more,
         min(s.score::text) filter (where s.ordinality = $3::int - 1) as last_score,
         min(s.id::text) filter (where s.ordinality = $3::int - 1) as last_id
    from ${SEARCH_CALL} with ordinality as s
   cross join lateral (select ${HIT_COLUMNS}) r`;

export async function searchPage(
  tx: Queryable,
  options: Omit<SearchOptions, "fullRanking">,
): Promise<Page<z.infer<typeof searchHitSchema>>> {
  const [row] = await tx.queryLast<{
    page: string;
    has_more: boolean;
    last_score: string | null;
    last_id: string | null;
  }>(SEARCH_PAGE, searchParams(options));
  if (!row) throw new Error("a search page answered no row");
  const next =
    row.has_more && row.last_score !== null && row.last_id !== null
      ? encodeSearchCursor({ score: row.last_score, id: row.last_id })
      : null;
  return serializedPage(row.page, row.has_more, next);
}

/**
 * Ranked catalog search, the same for GET /search and phrase resolves: one statement, the store's
 * app_private.search_catalog (lib/catalog/search-sql.ts holds its SQL and says how it ranks).
 */
export async function searchCatalog(
  tx: Queryable,
  options: SearchOptions,
): Promise<{ hits: SearchHit[]; hasMore: boolean; nextCursor: string | null; ranked: Ranked | null }> {
  const rows = await tx.query<Row>(PAGE, searchParams(options));
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const hasMore = rows.length > options.limit;
  return {
    hits: page.map(({ ranked: _, ...row }) => ({
      ...row,
      score: Number(row.score),
      similarity: Number(row.similarity),
    })),
    hasMore,
    nextCursor: hasMore && last ? encodeSearchCursor({ score: last.score, id: last.id }) : null,
    ranked: rows[0]?.ranked ?? null,
  };
}
