import { dedupeKey } from "../url-clean.ts";
import type { ParsedRef } from "../types.ts";
import { ref, segments, slugToTitle } from "./shared.ts";

/**
 * Any other page is an article, identified by its normalised URL. Offline its title is guessed
 * from the last path segment ("/2024/05/why-we-sleep.html" → "Why We Sleep"); with no such
 * segment it has none (the host is its subtitle, not its title) until the page's tags name it.
 */
export function articleRef(url: URL): ParsedRef {
  const last = segments(url)
    .reverse()
    .find((part) => !/^\d+$/.test(part) && !/^(index|amp)(\.\w+)?$/i.test(part));
  const slug = last?.replace(/\.(html?|php|aspx?)$/i, "");
  const host = url.hostname.replace(/^www\./, "");
  const title = slug && /[a-z]/i.test(slug) ? slugToTitle(slug) : undefined;
  return ref("website", "articles", "article", [{ namespace: "url", value: dedupeKey(url) }], url.href, {
    ...(title ? { title } : {}),
    subtitle: host,
  });
}
