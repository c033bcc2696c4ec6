import type { ParsedRef } from "../types.ts";
import { bareHost, ref, shortLink, slugToTitle } from "./shared.ts";

/** "the-matrix-1999" → title "The Matrix", year "1999". */
function slugWithYear(slug: string): ParsedRef["hints"] {
  const match = /^(.*?)-((?:18|19|20)\d{2})$/.exec(slug);
  return match?.[1] && match[2] ? { title: slugToTitle(match[1]), year: match[2] } : { title: slugToTitle(slug) };
}

export function imdbRef(id: string): ParsedRef {
  if (id.startsWith("nm")) {
    return ref("imdb", "film", "person", [{ namespace: "imdb", value: id }], `https://www.imdb.com/name/${id}/`);
  }
  return ref("imdb", "film", "movie", [{ namespace: "imdb", value: id }], `https://www.imdb.com/title/${id}/`);
}

export function recogniseFilm(url: URL): ParsedRef | null {
  const host = bareHost(url);
  if (host === "imdb.com" || host === "m.imdb.com") {
    const match = /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(title|name)\/((?:tt|nm)\d{7,9})(?:\/|$)/.exec(url.pathname);
    return match?.[2] ? imdbRef(match[2]) : null;
  }
  if (host === "themoviedb.org") {
    const match = /^\/(movie|tv|person|collection)\/(\d+)(?:-([^/]*))?(?:\/|$)/.exec(url.pathname);
    if (!match?.[1] || !match[2]) return null;
    const kind = { movie: "movie", tv: "tv_series", person: "person", collection: "collection" }[match[1]] ?? "movie";
    return ref(
      "tmdb",
      "film",
      kind,
      [{ namespace: `tmdb:${match[1]}`, value: match[2] }],
      `https://www.themoviedb.org/${match[1]}/${match[2]}`,
      match[3] ? { title: slugToTitle(match[3]) } : {},
    );
  }
  if (host === "letterboxd.com") {
    const match = /^\/(?:[a-z0-9_]+\/)?film\/([a-z0-9-]+)(?:\/|$)/.exec(url.pathname);
    if (!match?.[1]) return null;
    return ref(
      "letterboxd",
      "film",
      "movie",
      [{ namespace: "letterboxd:film", value: match[1] }],
      `https://letterboxd.com/film/${match[1]}/`,
      slugWithYear(match[1]),
    );
  }
  if (host === "boxd.it") return shortLink("letterboxd", "film", url);
  if (host === "netflix.com") {
    const match = /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:title|watch)\/(\d+)(?:\/|$)/.exec(url.pathname);
    if (!match?.[1]) return null;
    return ref(
      "netflix",
      "film",
      "movie",
      [{ namespace: "netflix:title", value: match[1] }],
      `https://www.netflix.com/title/${match[1]}`,
    );
  }
  return null;
}
