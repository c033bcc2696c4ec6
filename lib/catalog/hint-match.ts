import type { Queryable } from "../db/index.ts";
import type { EntryDraft, ParsedRef } from "./types.ts";

/**
 * Platforms whose URL slug is the work's own title (not an album's, not a user's); Google Maps here
 * only for a place searched by name with no position (a positioned one is matched by distance).
 */
const TITLE_SLUGS = new Set(["letterboxd", "tmdb", "goodreads", "open_library", "google_books", "google_maps"]);

interface Match {
  id: string;
  namespace: string;
  value: string;
  confidence: number;
}

/**
 * A URL the catalog knows under another id (a Letterboxd film the seed holds by its IMDb id, a
 * Google Maps pin on a seeded landmark) is matched by what the URL says: for films and books the
 * exact title (and year, when the slug has one), taken only when exactly one complete entry has
 * it; for places a similar name within about a kilometre. The caller then attaches the URL's ids
 * to that entry, so the next resolve finds it by id.
 */
export async function matchByHints(tx: Queryable, ref: ParsedRef): Promise<Match | null> {
  const { title, lat, lng, year } = ref.hints;
  if (!title) return null;
  if (ref.domain === "places" && lat !== undefined && lng !== undefined) {
    const [row] = await tx.query<Match>(
      `select c.id, x.namespace, x.value, extensions.similarity(c.search_title, app_private.catalog_normalize($1)) as confidence
         from public.catalog_entries c
         join lateral (select namespace, value from public.catalog_external_ids where entry_id = c.id limit 1) x on true
        where c.domain = 'places' and not c.partial
          and jsonb_typeof(c.attributes -> 'lat') = 'number' and jsonb_typeof(c.attributes -> 'lng') = 'number'
          and abs((c.attributes ->> 'lat')::float8 - $2) < 0.01 and abs((c.attributes ->> 'lng')::float8 - $3) < 0.01
          and extensions.similarity(c.search_title, app_private.catalog_normalize($1)) >= 0.4
        order by confidence desc, c.id limit 1`,
      [title, lat, lng],
    );
    return row ? { ...row, confidence: Math.round(Number(row.confidence) * 100) / 100 } : null;
  }
  if (!ref.domain || !TITLE_SLUGS.has(ref.platform)) return null;
  const rows = await tx.query<Match>(
    `select c.id, x.namespace, x.value, 0.9 as confidence
       from public.catalog_entries c
       join lateral (select namespace, value from public.catalog_external_ids where entry_id = c.id limit 1) x on true
      where c.domain = $1 and not c.partial and c.search_title = app_private.catalog_normalize($2)
        and ($3::text is null or left(c.release_date, 4) = $3)
      limit 2`,
    [ref.domain, title, year ?? null],
  );
  return rows.length === 1 && rows[0] ? { ...rows[0], confidence: 0.9 } : null;
}

/** A draft that only adds the URL's ids and link to an existing entry (the store fills gaps, never overwrites). */
export function attachDraft(ref: ParsedRef, match: Match, links: EntryDraft["platform_links"]): EntryDraft {
  return {
    domain: ref.domain ?? "articles",
    kind: ref.kind,
    title: ref.hints.title ?? null,
    platform_links: links,
    external_ids: [{ namespace: match.namespace, value: match.value }, ...ref.ids],
  };
}
