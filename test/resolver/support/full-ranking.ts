import { expect } from "vitest";
import type { Queryable } from "@/lib/db";
import { searchCatalog } from "@/lib/catalog/search-query";

type Page = Omit<Awaited<ReturnType<typeof searchCatalog>>, "ranked">;

/**
 * Pages `query` as GET /search does (the short ways) and by the full ranking side by side, each
 * with its own cursor, up to `pages` pages or the last: every page must be the full ranking's, and
 * the full ranking's label "all". Returns each page with the way that ranked it; `each` sees every
 * page and the cursor that asked for it, for a test's own checks.
 */
export async function pagesAsFullRanking(
  tx: Queryable,
  query: string,
  options: {
    pages: number;
    limit?: number;
    each?: (page: Page, after: string | undefined, index: number) => Promise<void> | void;
  },
): Promise<(Page & { ranked: string | null })[]> {
  const limit = options.limit ?? 20;
  const seen: (Page & { ranked: string | null })[] = [];
  let [short, full]: (string | undefined)[] = [];
  for (let index = 0; index < options.pages; index++) {
    const { ranked, ...a } = await searchCatalog(tx, { query, limit, after: short });
    const { ranked: all, ...b } = await searchCatalog(tx, { query, limit, after: full, fullRanking: true });
    expect(a, `${query}, page ${index}`).toEqual(b);
    if (b.hits.length > 0) expect(all, `${query}, page ${index}`).toBe("all");
    await options.each?.(a, short, index);
    seen.push({ ...a, ranked });
    if (!a.nextCursor) break;
    [short, full] = [a.nextCursor, b.nextCursor ?? undefined];
  }
  return seen;
}
