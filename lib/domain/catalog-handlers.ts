import { DEFAULT_PAGE_SIZE } from "../../registry/capabilities.ts";
import { DomainError } from "../errors/domain-error.ts";
import { readCurrent } from "../catalog/catalog-store.ts";
import { resolveInput } from "../catalog/resolve.ts";
import { searchPage } from "../catalog/search-query.ts";
import type { ToolHandler } from "./context.ts";

/**
 * The catalog's member-facing verbs. The catalog (lib/catalog) does the work; these bind it to the
 * pipeline. Resolve does all of it in `prepare`, before the member transaction: network I/O never
 * happens while a transaction is open, and the catalog is written by the service, not the member.
 */
export const resolve: ToolHandler<"resolve"> = Object.assign(async ({ prepared }: { prepared?: unknown }) => prepared, {
  prepare: resolveInput,
});

/** GET /search: the shared catalog, ranked, one page at a time (the tool's argument is `query`). */
export const search: ToolHandler<"search"> = async ({ tx, input }) =>
  searchPage(tx, {
    query: input.query,
    domain: input.domain ?? null,
    limit: input.limit ?? DEFAULT_PAGE_SIZE,
    after: input.after,
  });

/** GET /catalog/{song_id}: one entry (or, for an id merged away, the entry it became). */
export const catalogGet: ToolHandler<"catalog_get"> = async ({ tx, input }) => {
  const found = await readCurrent(tx, input.song_id);
  if (!found) throw new DomainError("not_found", "No catalog entry has this id.");
  return { ...found.entry, merged_from: found.mergedFrom };
};
