import { normaliseIds } from "./identity.ts";
import type { EntryDraft } from "./types.ts";

const clip = (text: string | null | undefined, max: number) => (text ? text.trim().slice(0, max) || null : null);
const NAMESPACE = /^[a-z0-9_]+(:[a-z0-9_]+)?$/;

/**
 * Upstream answers are not trusted to fit the catalog's constraints: a draft is trimmed to them
 * before it reaches the store (where a violation would fail the member's whole request), its ids
 * written in their one stored form (identity.ts); a draft with no usable identity is dropped, as is a complete one with no title (only a partial
 * draft may be untitled: it says nothing is known yet).
 */
export function fitDraft(draft: EntryDraft): EntryDraft | null {
  const title = clip(draft.title, 500);
  const ids = normaliseIds(draft.external_ids)
    .filter((id) => NAMESPACE.test(id.namespace) && id.value.length <= 2048)
    .slice(0, 50);
  if (!ids.length || (!title && !draft.partial)) return null;
  const date = draft.release_date && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(draft.release_date) ? draft.release_date : null;
  const canonical = draft.canonical_url && draft.canonical_url.length <= 2048 ? draft.canonical_url : null;
  return {
    ...draft,
    kind: /^[a-z_]{2,32}$/.test(draft.kind) ? draft.kind : "item",
    title,
    subtitle: clip(draft.subtitle, 500),
    creators: (draft.creators ?? []).filter((c) => c.name.trim()).slice(0, 20),
    release_date: date,
    canonical_url: canonical,
    external_ids: ids,
  };
}
