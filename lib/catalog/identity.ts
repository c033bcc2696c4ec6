import { toIsbn13 } from "./isbn.ts";
import type { ExternalId } from "./types.ts";

/**
 * The identity of a work: its external ids, one row each in catalog_external_ids, unique per
 * (namespace, value), so one id never names two entries. Every id is written in one form before it
 * is looked up or stored, whichever platform, provider or seed it came from: otherwise
 * "isrc GBUM71029604" and "gb-um7-10-29604", or an ISBN-10 and its ISBN-13, would be two works.
 *
 * A rule answers the stored form, or null for a value that cannot be that id (it is dropped, not
 * stored: a wrong id would merge two works). Namespaces not listed (url, geo, gmaps:*, …) are kept
 * as given; the recogniser already writes them in one form.
 */
type Rule = (value: string) => string | null;

const matching =
  (pattern: RegExp, form: (value: string) => string = (value) => value): Rule =>
  (value) => {
    const written = form(value.trim());
    return pattern.test(written) ? written : null;
  };
const digits = matching(/^\d{1,20}$/);
const upper = (value: string) => value.toUpperCase();
const lower = (value: string) => value.toLowerCase();

const exactly = (namespaces: readonly string[], rule: Rule) =>
  Object.fromEntries(namespaces.map((namespace) => [namespace, rule]));

/** Exact namespaces, then namespace families ("deezer:*"), with the scheme each stands for. */
const EXACT: Record<string, Rule> = {
  // ISRC (ISO 3901): CC-XXX-YY-NNNNN, stored without hyphens, upper case.
  isrc: matching(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/, (v) => v.toUpperCase().replace(/[\s-]/g, "")),
  // ISBN-10 and ISBN-13 are one scheme, stored as ISBN-13 (isbn10/isbn are renamed below).
  isbn13: (value) => toIsbn13(value),
  // IMDb title (tt…) and name (nm…) ids.
  imdb: matching(/^(tt|nm)\d{7,10}$/, lower),
  // Wikidata items: Q followed by digits.
  wikidata: matching(/^Q\d+$/, upper),
  "olid:work": matching(/^OL\d+W$/, upper),
  "olid:edition": matching(/^OL\d+M$/, upper),
  "olid:author": matching(/^OL\d+A$/, upper),
  // Spotify ids are 22 characters of base 62, case-sensitive: kept as given.
  ...exactly(
    [
      "spotify:track",
      "spotify:album",
      "spotify:artist",
      "spotify:playlist",
      "spotify:episode",
      "spotify:show",
      "spotify:audiobook",
    ],
    matching(/^[0-9A-Za-z]{22}$/),
  ),
  // Numeric catalogue ids (Apple playlists and stations, Tidal playlists and mixes are not numeric: kept as given).
  ...exactly(
    [
      "apple:song",
      "apple:album",
      "apple:artist",
      "apple:music_video",
      "tidal:track",
      "tidal:album",
      "tidal:artist",
      "tidal:video",
    ],
    digits,
  ),
};
const FAMILIES: Record<string, Rule> = {
  // Deezer ids of every kind are numeric.
  deezer: digits,
  // YouTube ids (videos: 11 characters of URL-safe base 64; playlists, channels, @handles) are case-sensitive.
  youtube: matching(/^[\w@.-]{1,128}$/),
  // MusicBrainz ids are UUIDs, written in lower case.
  mb: matching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, lower),
  tmdb: digits,
  // OpenStreetMap: osm:node / osm:way / osm:relation with a numeric id.
  osm: digits,
};
const RENAMED: Record<string, string> = {
  isbn: "isbn13",
  isbn10: "isbn13",
  isbn_10: "isbn13",
  isbn_13: "isbn13",
  musicbrainz: "mb",
};

/** The stored form of one id, or null when the value cannot be an id of its scheme. */
export function normaliseId(id: ExternalId): ExternalId | null {
  const [head = "", ...rest] = id.namespace.trim().toLowerCase().split(":");
  const namespace = [RENAMED[head] ?? head, ...rest].join(":");
  const rule = EXACT[namespace] ?? FAMILIES[namespace.split(":")[0] ?? ""];
  const value = rule ? rule(id.value) : id.value.trim();
  return value ? { namespace, value } : null;
}

/** Every id in its stored form, invalid ones dropped, each once. */
export function normaliseIds(ids: readonly ExternalId[]): ExternalId[] {
  const seen = new Set<string>();
  const out: ExternalId[] = [];
  for (const id of ids) {
    const written = normaliseId(id);
    if (!written) continue;
    const key = `${written.namespace}\u0000${written.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(written);
  }
  return out;
}
