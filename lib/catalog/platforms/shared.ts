import type { Domain, ExternalId, ParsedRef } from "../types.ts";

/** Hostname without "www." (and lower-cased; URL already lower-cases it). */
export const bareHost = (url: URL) => url.hostname.replace(/^www\./, "");

export const segments = (url: URL) => url.pathname.split("/").filter(Boolean);

/** Words a title keeps in lower case unless they open it ("The Lord of the Rings"). */
const MINOR = new Set("a an and as at but by for from in into nor of on or over per the to via vs with".split(" "));

/**
 * A title from a URL slug: "the-matrix" → "The Matrix", "Harry_Potter_and_the_Sorcerer_s_Stone" →
 * "Harry Potter and the Sorcerer's Stone", "the-lord-of-the-rings" → "The Lord of the Rings". A slug
 * that carries capitals (Goodreads, Amazon, Google Maps) keeps its own case; an all-lower-case slug
 * is title-cased with minor words left lower. A lone "s" or "t" is the apostrophe slugs drop.
 */
export function slugToTitle(slug: string): string {
  let text = slug;
  try {
    text = decodeURIComponent(slug.replace(/\+/g, " "));
  } catch {
    // a malformed escape stays as typed
  }
  const words = text
    .replace(/[-_]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/(\p{L}) (s|t)(?= |$)/gu, "$1'$2")
    .split(" ");
  const cased = /\p{Lu}/u.test(text);
  return words
    .map((word, index) => {
      if (!word) return word;
      if (index > 0 && MINOR.has(word.toLowerCase()) && (!cased || word === word.toLowerCase()))
        return word.toLowerCase();
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(" ");
}

export function ref(
  platform: string,
  domain: Domain | null,
  kind: string,
  ids: ExternalId[],
  canonicalUrl: string,
  hints: ParsedRef["hints"] = {},
): ParsedRef {
  return { platform, domain, kind, ids, canonicalUrl, hints };
}

export function shortLink(platform: string, domain: Domain | null, url: URL): ParsedRef {
  return { ...ref(platform, domain, "short_link", [], url.href), needsNetwork: true };
}
