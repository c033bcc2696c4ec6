import { DomainError } from "../errors/domain-error.ts";
import { compactIsbn, toIsbn13 } from "./isbn.ts";
import { articleRef } from "./platforms/article.ts";
import { isbnRef, recogniseBooks } from "./platforms/books.ts";
import { imdbRef, recogniseFilm } from "./platforms/film.ts";
import { recogniseMusic, recogniseSpotifyUri } from "./platforms/music.ts";
import { coordinatesRef, parseCoordinates, recognisePlaces } from "./platforms/places.ts";
import { recogniseWikipedia } from "./platforms/wikipedia.ts";
import type { Domain, ParsedRef } from "./types.ts";
import { cleanUrl, parseUrlInput, unwrapRedirects } from "./url-clean.ts";

export type Classified =
  | { type: "url" | "uri" | "identifier"; ref: ParsedRef }
  | { type: "phrase"; phrase: string; domain: Domain | null };

const HINTS: Record<string, Domain> = {
  song: "music",
  track: "music",
  album: "music",
  artist: "music",
  music: "music",
  film: "film",
  movie: "film",
  show: "film",
  series: "film",
  book: "books",
  author: "books",
  place: "places",
  article: "articles",
  product: "products",
};

/** Pure and offline: what the input is, and what a URL or identifier names. */
export function classify(input: string): Classified {
  const text = input.trim();
  const uri = recogniseSpotifyUri(text);
  if (uri) return { type: "uri", ref: uri };
  refuseOtherSchemes(text);
  if (/^(tt|nm)\d{7,9}$/.test(text)) return { type: "identifier", ref: imdbRef(text) };
  const isbn = isbnIdentifier(text);
  if (isbn) return { type: "identifier", ref: isbn };
  const coords = parseCoordinates(text);
  if (coords) return { type: "identifier", ref: coordinatesRef(coords.lat, coords.lng) };
  const url = parseUrlInput(text);
  if (url) return { type: "url", ref: recogniseUrl(url) };
  const hinted = /^([a-z]+):\s*(.+)$/i.exec(text);
  const domain = hinted?.[1] ? (HINTS[hinted[1].toLowerCase()] ?? null) : null;
  if (hinted?.[2] && domain) return { type: "phrase", phrase: hinted[2].trim(), domain };
  return { type: "phrase", phrase: text, domain: null };
}

/** Schemes that are never a link to a work, even without "//" (javascript:alert(1), data:…, mailto:…). */
const BARE_SCHEMES = /^(javascript|vbscript|data|file|blob|about|mailto|tel|sms|magnet|chrome|view-source):/i;

/**
 * Only http(s) links are resolved. Any other scheme (ftp://, javascript:, data:, file://, …) is a
 * 422, not a phrase that happens to match nothing (which would be a 404).
 */
function refuseOtherSchemes(text: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1] ?? BARE_SCHEMES.exec(text)?.[1];
  if (!scheme || /^https?$/i.test(scheme)) return;
  throw new DomainError(
    "invalid_request",
    `Only http and https links can be resolved, not ${scheme.toLowerCase()}: links.`,
    {
      errors: [
        { pointer: "/input", code: "unsupported_scheme", message: "Paste an http(s) link, an identifier or a phrase." },
      ],
    },
  );
}

/** Something shaped like an ISBN must carry a valid check digit; a typo is a 422, not a phrase search. */
function isbnIdentifier(text: string): ParsedRef | null {
  const compact = compactIsbn(text);
  const prefixed = /^isbn/i.test(text.trim());
  const shaped =
    /^(\d{9}[\dX]|97[89]\d{10})$/.test(compact) && /^[\dXx\s-]+$/.test(text.replace(/^isbn(-1[03])?:?/i, ""));
  if (!prefixed && !shaped) return null;
  const isbn13 = toIsbn13(compact);
  if (isbn13) return isbnRef(isbn13);
  throw new DomainError("invalid_request", "This looks like an ISBN, but its check digit is wrong.", {
    errors: [
      { pointer: "/input", code: "invalid_isbn", message: "The ISBN-10 or ISBN-13 check digit does not match." },
    ],
  });
}

export function recogniseUrl(raw: URL): ParsedRef {
  const unwrapped = unwrapRedirects(raw);
  const url = cleanUrl(unwrapped);
  return (
    recogniseMusic(url) ??
    recogniseFilm(url) ??
    recogniseBooks(url) ??
    // OpenStreetMap keeps the map position in the fragment, which cleaning drops.
    recognisePlaces(url, unwrapped.hash) ??
    recogniseWikipedia(url) ??
    articleRef(url)
  );
}
