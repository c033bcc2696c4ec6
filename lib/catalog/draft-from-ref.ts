import type { EntryDraft, ParsedRef, PlatformLink } from "./types.ts";

/** Platforms whose canonical URL is worth keeping as a platform link of the entry. */
const LINKABLE = new Set([
  "spotify",
  "apple_music",
  "youtube",
  "youtube_music",
  "deezer",
  "soundcloud",
  "tidal",
  "bandcamp",
  "amazon_music",
  "imdb",
  "tmdb",
  "letterboxd",
  "netflix",
  "goodreads",
  "open_library",
  "google_books",
  "amazon",
  "bookshop",
  "barnes_and_noble",
  "google_maps",
  "openstreetmap",
  "apple_maps",
  "wikipedia",
  "website",
]);

export function inputLink(ref: ParsedRef): Record<string, PlatformLink> {
  return LINKABLE.has(ref.platform) ? { [ref.platform]: { url: ref.canonicalUrl, source: "input" } } : {};
}

/**
 * What the URL alone says, stored as a partial entry so the member gets a song_id with no network.
 * A URL whose domain is open (a YouTube video, a Wikipedia page) is filed as an article until a
 * provider says otherwise. The title is what the URL names (a slug, a searched place), or null:
 * never one made up from an id ("Spotify track 4cOd…"), which would then live in collections.
 */
export function draftFromRef(ref: ParsedRef): EntryDraft {
  const title = ref.hints.title ?? null;
  const attributes: Record<string, unknown> = {};
  if (ref.hints.lat !== undefined && ref.hints.lng !== undefined)
    Object.assign(attributes, { lat: ref.hints.lat, lng: ref.hints.lng });
  if (ref.hints.lang) attributes.lang = ref.hints.lang;
  return {
    domain: ref.domain ?? "articles",
    kind: ref.domain ? ref.kind : ref.kind === "video" || ref.kind === "playlist" ? ref.kind : "article",
    title: title?.slice(0, 500) ?? null,
    subtitle: ref.hints.subtitle ?? null,
    creators: [],
    artwork: null,
    platform_links: inputLink(ref),
    canonical_url: ref.canonicalUrl,
    release_date: ref.hints.year ?? null,
    attributes,
    partial: true,
    source: "resolver",
    external_ids: ref.ids,
  };
}

/** A provider's draft also carries the ids the input named, so the two are one entry from now on. */
export function withRefIds(draft: EntryDraft, ref: ParsedRef): EntryDraft {
  const seen = new Set(draft.external_ids.map((id) => `${id.namespace}\u0000${id.value}`));
  const extra = ref.ids.filter((id) => !seen.has(`${id.namespace}\u0000${id.value}`));
  return {
    ...draft,
    external_ids: [...draft.external_ids, ...extra],
    platform_links: { ...inputLink(ref), ...draft.platform_links },
    canonical_url: draft.canonical_url ?? ref.canonicalUrl,
  };
}
