import { dedupeKey } from "../url-clean.ts";
import type { ParsedRef } from "../types.ts";
import { ref, segments, slugToTitle } from "./shared.ts";

/** Path segments that name a site's section, not the page: "/archives/59", "/news/articles/…". */
const SECTIONS = new Set(
  "archive archives article articles blog blogs news post posts story stories p a threads thread updates view read".split(
    " ",
  ),
);

/** "cd605e48q1vo", "a1b2c3d4": one token of letters and digits is an id, not a title. */
const ID_LIKE = /^(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{6,}$/i;

/**
 * Any other page is an article, identified by its normalised URL. Offline its title is guessed
 * from the last path segment ("/2024/05/why-we-sleep.html" → "Why We Sleep"), without the numeric
 * id a site may append ("…-surprises-of-the-year.2414830"). A segment that is a number, a section
 * name or an id-like token names nothing: the page has no title (the host is its subtitle, not its
 * title) until its tags name it.
 */
export function articleRef(url: URL): ParsedRef {
  const last = segments(url)
    .reverse()
    .find((part) => !/^\d+$/.test(part) && !/^(index|amp)(\.\w+)?$/i.test(part));
  const slug = last?.replace(/\.(html?|php|aspx?)$/i, "").replace(/([a-z])[.-]\d{5,}$/i, "$1");
  const host = url.hostname.replace(/^www\./, "");
  const named = slug && /[a-z]/i.test(slug) && !SECTIONS.has(slug.toLowerCase()) && !ID_LIKE.test(slug);
  const title = named ? slugToTitle(slug) : undefined;
  return ref("website", "articles", "article", [{ namespace: "url", value: dedupeKey(url) }], url.href, {
    ...(title ? { title } : {}),
    subtitle: host,
  });
}
