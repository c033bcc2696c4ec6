import type { ParsedRef } from "../types.ts";
import { providerSettings } from "./config.ts";
import { throughCache } from "./durable-cache.ts";
import { fetchPage } from "./page-fetch.ts";

/**
 * Follows a short link (spotify.link, maps.app.goo.gl, amzn.to, boxd.it, …) through the SSRF-guarded
 * page client until it reaches an address the offline recogniser knows, and answers that address.
 * The target itself is not fetched. Runs under the "html" provider's settings and switch; where a
 * short link leads is kept in the resolver cache like any provider answer.
 */
export async function expandShortLink(
  ref: ParsedRef,
  recognise: (url: URL) => ParsedRef,
  deadline?: AbortSignal,
): Promise<URL> {
  const known = (url: URL) => {
    const next = recognise(url);
    return !next.needsNetwork && next.platform !== "website";
  };
  const target = await throughCache(`html-redirect ${ref.canonicalUrl}`, async () => {
    const page = await fetchPage(providerSettings("html", deadline), ref.canonicalUrl, "text/html", known);
    return page.url;
  });
  return new URL(String(target));
}
