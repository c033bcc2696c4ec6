import type { Domain, ExternalId, ParsedRef } from "../types.ts";

/** Hostname without "www." (and lower-cased; URL already lower-cases it). */
export const bareHost = (url: URL) => url.hostname.replace(/^www\./, "");

export const segments = (url: URL) => url.pathname.split("/").filter(Boolean);

/** "the-matrix" / "The_Hobbit" / "The+White+House" → "The Matrix" / "The Hobbit" / "The White House". */
export function slugToTitle(slug: string): string {
  let text = slug;
  try {
    text = decodeURIComponent(slug.replace(/\+/g, " "));
  } catch {
    // a malformed escape stays as typed
  }
  return text
    .replace(/[-_]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .split(" ")
    .map((word) => (word ? word.charAt(0).toUpperCase() + word.slice(1) : word))
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
