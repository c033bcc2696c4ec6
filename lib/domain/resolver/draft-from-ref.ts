import type { EntryDraft, ParsedRef, PlatformLink } from "./types.ts";

/** Platforms whose canonical URL is worth keeping as a platform link of the entry. */
const LINKABLE = new Set([
  "spotify", "apple_music", "youtube", "youtube_music", "deezer", "soundcloud", "tidal", "bandcamp", "amazon_music",
  "imdb", "tmdb", "letterboxd", "netflix", "goodreads", "open_library", "google_books", "amazon", "bookshop",
  "barnes_and_noble", "google_maps", "openstreetmap", "apple_maps", "wikipedia", "website",
]);

const LABELS: Record<string, string> = {
  spotify: "Spotify", apple_music: "Apple Music", youtube: "YouTube", youtube_music: "YouTube Music", deezer: "Deezer",
  tidal: "Tidal", amazon_music: "Amazon Music", imdb: "IMDb", tmdb: "TMDB", netflix: "Netflix", goodreads: "Goodreads",
  open_library: "Open Library", google_books: "Google Books", amazon: "Amazon", google_maps: "Google Maps",
  openstreetmap: "OpenStreetMap", apple_maps: "Apple Maps",
};

export function inputLink(ref: ParsedRef): Record<string, PlatformLink> {
  return LINKABLE.has(ref.platform) ? { [ref.platform]: { url: ref.canonicalUrl, source: "input" } } : {};
}

/**
 * What the URL alone says, stored as a partial entry so the member gets a song_id with no network.
 * A URL whose domain is open (a YouTube video, a Wikipedia page) is filed as an article until a
 * provider says otherwise.
 */
export function draftFromRef(ref: ParsedRef): EntryDraft {
  const id = ref.ids[0]?.value ?? "";
  const label = LABELS[ref.platform] ?? ref.platform;
  const title = ref.hints.title ?? `${label} ${ref.kind.replace(/_/g, " ")} ${id}`.trim();
  const attributes: Record<string, unknown> = {};
  if (ref.hints.lat !== undefined && ref.hints.lng !== undefined) Object.assign(attributes, { lat: ref.hints.lat, lng: ref.hints.lng });
  if (ref.hints.lang) attributes.lang = ref.hints.lang;
  return {
    domain: ref.domain ?? "articles",
    kind: ref.domain ? ref.kind : ref.kind === "video" || ref.kind === "playlist" ? ref.kind : "article",
    title: title.slice(0, 500),
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
