import { DEFAULT_PAGE_SIZE } from "../../registry/capabilities.ts";
import type { Handler } from "./context.ts";
import { searchCatalog } from "./search-query.ts";

/** GET /search: the shared catalog, ranked, one page at a time (the tool's argument is `query`). */
export const search: Handler = async ({ tx, input }) => {
  const { hits, hasMore, nextCursor } = await searchCatalog(tx, {
    query: String(input.query),
    domain: typeof input.domain === "string" ? input.domain : null,
    limit: typeof input.limit === "number" ? input.limit : DEFAULT_PAGE_SIZE,
    after: typeof input.after === "string" ? input.after : undefined,
  });
  return { data: hits.map(({ similarity: _similarity, ...hit }) => hit), has_more: hasMore, next_cursor: nextCursor };
};
