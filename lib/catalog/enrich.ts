import type { Queryable } from "../db/index.ts";
import { withRefIds } from "./draft-from-ref.ts";
import { idLink } from "./id-links.ts";
import { lookupWithProviders, type ProviderOutcome } from "./providers/index.ts";
import { recogniseUrl } from "./recognise.ts";
import type { ExternalId, ParsedRef } from "./types.ts";

/** The ids a cross-platform lookup (Odesli) answers best, best first. */
const LOOKUP_ORDER = ["spotify:track", "apple:song", "deezer:track", "tidal:track", "youtube:video"];

/** A song shown with fewer platforms than this (or no artwork) is worth one lookup to fill in. */
export const WANTED_PLATFORMS = 3;

interface Shape {
  domain: string;
  has_artwork: boolean;
  links: number;
  ids: ExternalId[];
  /** A link came from a provider: they were asked once already, and a second lookup would learn nothing new. */
  asked: boolean;
}

/**
 * A complete music entry the catalog shows thinly — the offline seed's songs have ids but no
 * artwork and one or two platform links — is looked up once by the link of its best id, so a
 * member sees artwork and the song on every platform. Null when the entry needs nothing or has no
 * id a provider can look up. The resolver cache keeps a second resolve from asking again.
 */
export async function thinMusicRef(tx: Queryable, id: string): Promise<ParsedRef | null> {
  const [row] = await tx.query<Shape>(
    `select c.domain, c.artwork is not null as has_artwork,
            exists (select 1 from jsonb_each(c.platform_links) l where l.value ->> 'source' is distinct from 'seed') as asked,
            (select count(*) from jsonb_object_keys(c.platform_links))::int as links,
            coalesce((select jsonb_agg(jsonb_build_object('namespace', x.namespace, 'value', x.value))
                        from public.catalog_external_ids x where x.entry_id = c.id), '[]'::jsonb) as ids
       from public.catalog_entries c where c.id = $1`,
    [id],
  );
  if (row?.domain !== "music" || row.asked || (row.has_artwork && row.links >= WANTED_PLATFORMS)) return null;
  for (const namespace of LOOKUP_ORDER) {
    const value = row.ids.find((known) => known.namespace === namespace)?.value;
    const link = value ? idLink(namespace, value) : null;
    if (link) return recogniseUrl(new URL(link[1]));
  }
  return null;
}

/**
 * Asks the providers about a thin entry's link; their drafts carry that link's id, so they fill the
 * same entry. When no provider knew anything more (and none failed), the answer is the catalog's
 * own, as if none had been asked (`resolution.offline`).
 */
export async function enrichThin(ref: ParsedRef | null, deadline: AbortSignal): Promise<ProviderOutcome | null> {
  if (!ref) return null;
  const outcome = await lookupWithProviders(ref, deadline);
  if (!outcome.drafts.length && !outcome.warnings.length) return null;
  return { ...outcome, drafts: outcome.drafts.map((draft) => withRefIds(draft, ref)) };
}
