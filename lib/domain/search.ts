import { DEFAULT_PAGE_SIZE } from "../../registry/capabilities.ts";
import type { ToolHandler } from "./context.ts";
import { searchCatalog } from "./search-query.ts";

/** GET /search: the shared catalog, ranked, one page at a time (the tool's argument is `query`). */
export const search: ToolHandler<"search"> = async ({ tx, input }) => {
  const { hits, hasMore, nextCursor } = await searchCatalog(tx, {
    query: input.query,
    domain: input.domain ?? null,
    limit: input.limit ?? DEFAULT_PAGE_SIZE,
    after: input.after,
    last: true,
  });
  return { data: hits.map(({ similarity: _similarity, ...hit }) => hit), has_more: hasMore, next_cursor: nextCursor };
};
