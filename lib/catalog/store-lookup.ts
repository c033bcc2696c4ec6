import type { Queryable } from "../db/index.ts";
import { upsertDraft } from "./catalog-store.ts";
import { withRefIds } from "./draft-from-ref.ts";
import { fitDraft } from "./draft-guard.ts";
import type { EntryDraft, ParsedRef } from "./types.ts";

/**
 * Writes what providers said about a link: each draft carries the link's own ids too, so it lands
 * on (or merges with) the entry the link already has. Answers the first entry written, or null.
 * Shared by resolve and the background completion worker.
 */
export async function storeLookup(
  tx: Queryable,
  ref: ParsedRef,
  drafts: readonly EntryDraft[],
): Promise<string | null> {
  let id: string | null = null;
  for (const draft of drafts) {
    const fitted = fitDraft(withRefIds(draft, ref));
    if (!fitted) continue;
    const written = await upsertDraft(tx, fitted);
    id ??= written;
  }
  return id;
}
