import type { z } from "zod";
import type { searchHitSchema } from "../../registry/operations/catalog-entry.ts";
import type { Queryable } from "../db/index.ts";
import { decodeSearchCursor, encodeSearchCursor } from "./search-cursor.ts";

/**
 * A hit as the registry declares it, plus the trigram similarity of the query to the entry (0..1),
 * which the resolver uses as its confidence for phrases and GET /search leaves out.
 */
export type SearchHit = z.infer<typeof searchHitSchema> & { similarity: number };

/** Which candidate set ranked the page (lib/catalog/search-sql.ts). */
export type Ranked = "words" | "near" | "all";

interface Row extends Omit<SearchHit, "score" | "similarity"> {
  score: string;
  similarity: number | string;
  ranked: Ranked;
}

// The score as text: the cursor's keyset compares it exactly.
const PAGE = `select song_id, id, domain, kind, title, subtitle, creators, artwork, release_date, match, similarity,
                     score::text as score, ranked
                from app_private.search_catalog($1, $2, $3, $4, $5, $6)`;

/**
 * Ranked catalog search, the same for GET /search and phrase resolves: one statement, the store's
 * app_private.search_catalog (lib/catalog/search-sql.ts holds its SQL and says how it ranks).
 * `fullRanking` ranks every candidate, the reference the short ways must equal (tests).
 */
export async function searchCatalog(
  tx: Queryable,
  options: {
    query: string;
    domain?: string | null;
    limit: number;
    after?: string;
    /** Nothing follows in the transaction (GET /search): the search's statement ends it. */
    last?: boolean;
    fullRanking?: boolean;
  },
): Promise<{ hits: SearchHit[]; hasMore: boolean; nextCursor: string | null; ranked: Ranked | null }> {
  const cursor = options.after ? decodeSearchCursor(options.after) : null;
  const params = [
    options.query,
    options.domain ?? null,
    options.limit + 1,
    cursor?.score ?? null,
    cursor?.id ?? null,
    options.fullRanking ?? false,
  ];
  const rows = await (options.last ? tx.queryLast<Row>(PAGE, params) : tx.query<Row>(PAGE, params));
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
