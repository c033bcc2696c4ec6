/**
 * A platform's own page for one of its ids, as [platform, url]: the links the offline seed carries, and
 * the players play_song builds from the ids the catalog holds. One table, so both name a work alike.
 */
const LINKS: Record<string, (v: string) => [string, string]> = {
  "spotify:track": (v) => ["spotify", `https://open.spotify.com/track/${v}`],
  "apple:song": (v) => ["apple_music", `https://music.apple.com/us/song/${v}`],
  "apple:album": (v) => ["apple_music", `https://music.apple.com/us/album/${v}`],
  "deezer:track": (v) => ["deezer", `https://www.deezer.com/track/${v}`],
  "tidal:track": (v) => ["tidal", `https://tidal.com/browse/track/${v}`],
  "youtube:video": (v) => ["youtube", `https://www.youtube.com/watch?v=${v}`],
  "soundcloud:permalink": (v) => ["soundcloud", `https://soundcloud.com/${v}`],
  imdb: (v) => ["imdb", `https://www.imdb.com/title/${v}/`],
  "tmdb:movie": (v) => ["tmdb", `https://www.themoviedb.org/movie/${v}`],
  "tmdb:tv": (v) => ["tmdb", `https://www.themoviedb.org/tv/${v}`],
  isbn13: (v) => ["open_library", `https://openlibrary.org/isbn/${v}`],
  "olid:work": (v) => ["open_library", `https://openlibrary.org/works/${v}`],
  "goodreads:book": (v) => ["goodreads", `https://www.goodreads.com/book/show/${v}`],
  wikidata: (v) => ["wikidata", `https://www.wikidata.org/wiki/${v}`],
  "wikipedia:en": (v) => ["wikipedia", `https://en.wikipedia.org/wiki/${encodeURIComponent(v.replace(/ /g, "_"))}`],
  "gmaps:cid": (v) => ["google_maps", `https://maps.google.com/?cid=${v}`],
};

export function idLink(namespace: string, value: string): [platform: string, url: string] | null {
  return LINKS[namespace]?.(value) ?? null;
}
