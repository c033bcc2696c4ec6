import { z } from "zod";
import { cleanUrl, dedupeKey } from "../url-clean.ts";
import type { Domain, EntryDraft, ExternalId, ParsedRef } from "../types.ts";
import type { ProviderSettings } from "./config.ts";
import { throughCache } from "./durable-cache.ts";
import { ProviderError } from "./errors.ts";
import { readPageMeta } from "./html-meta.ts";
import { fetchPage } from "./page-fetch.ts";
import type { Provider } from "./provider.ts";

const OEmbed = z.looseObject({
  title: z.string().optional(),
  author_name: z.string().optional(),
  author_url: z.string().optional(),
  provider_name: z.string().optional(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.coerce.number().optional(),
  thumbnail_height: z.coerce.number().optional(),
});

const OG_DOMAINS: [RegExp, Domain, string][] = [
  [/^music\.(song|album|playlist|radio_station)/, "music", "track"],
  [/^video\.(movie|episode|tv_show)/, "film", "movie"],
  [/^books?(\.book)?$/, "books", "edition"],
  [/^product/, "products", "product"],
  [/^(place|business)/, "places", "place"],
];

const sameSite = (a: URL, b: URL) => {
  const tail = (u: URL) => u.hostname.split(".").slice(-2).join(".");
  return tail(a) === tail(b);
};

/**
 * Articles (and any page no platform claims): the page's OpenGraph/Twitter tags and its oEmbed
 * document, fetched through the SSRF guard. A canonical link counts only on the same site.
 */
export const page: Provider = {
  id: "html",
  async lookup(ref, settings) {
    if (ref.platform !== "website") return null;
    return (await throughCache(`html ${ref.canonicalUrl}`, () => readPage(ref, settings))) as EntryDraft | null;
  },
};

async function readPage(ref: ParsedRef, settings: ProviderSettings): Promise<EntryDraft | null> {
  const fetched = await fetchPage(settings, ref.canonicalUrl);
  if (!/html|xml/i.test(fetched.contentType)) return null;
  const { meta, title, canonical, oembed } = readPageMeta(fetched.body);
  let embed: z.output<typeof OEmbed> = {};
  if (oembed) {
    try {
      const doc = await fetchPage(settings, new URL(oembed, fetched.url).href, "application/json");
      embed = OEmbed.parse(JSON.parse(doc.body));
    } catch (error) {
      // The oEmbed document only adds detail; the page's own tags are enough without it.
      if (!(error instanceof ProviderError) && !(error instanceof SyntaxError) && !(error instanceof z.ZodError))
        throw error;
    }
  }
  const name = meta["og:title"] ?? meta["twitter:title"] ?? embed.title ?? title;
  if (!name) throw new ProviderError("html", "malformed", "The page has no title.");
  const pageUrl = new URL(fetched.url);
  const canonicalUrl = canonical && URL.canParse(canonical, pageUrl) ? cleanUrl(new URL(canonical, pageUrl)) : null;
  const ids: ExternalId[] = [...ref.ids];
  if (canonicalUrl && sameSite(canonicalUrl, pageUrl)) ids.push({ namespace: "url", value: dedupeKey(canonicalUrl) });
  const ogType = (meta["og:type"] ?? "article").toLowerCase();
  const [, domain, kind] = OG_DOMAINS.find(([pattern]) => pattern.test(ogType)) ?? [
    null,
    "articles" as Domain,
    "article",
  ];
  const image = meta["og:image:secure_url"] ?? meta["og:image"] ?? meta["twitter:image"] ?? embed.thumbnail_url;
  const author = meta["article:author"] ?? meta.author ?? embed.author_name;
  const published = meta["article:published_time"]?.slice(0, 10);
  const draft: EntryDraft = {
    domain,
    kind,
    title: name.slice(0, 500),
    subtitle: (meta["og:site_name"] ?? embed.provider_name ?? pageUrl.hostname.replace(/^www\./, "")).slice(0, 500),
    creators:
      author && !/^https?:/.test(author)
        ? [{ name: author.slice(0, 200), role: "author", links: embed.author_url ? { website: embed.author_url } : {} }]
        : [],
    artwork:
      image && URL.canParse(image, pageUrl)
        ? {
            url: new URL(image, pageUrl).href,
            width: numberOr(meta["og:image:width"], embed.thumbnail_width),
            height: numberOr(meta["og:image:height"], embed.thumbnail_height),
            source: "opengraph",
          }
        : null,
    platform_links: { website: { url: (canonicalUrl ?? pageUrl).href, source: "opengraph" } },
    canonical_url: (canonicalUrl && sameSite(canonicalUrl, pageUrl) ? canonicalUrl : new URL(ref.canonicalUrl)).href,
    release_date: published && /^\d{4}-\d{2}-\d{2}$/.test(published) ? published : null,
    attributes: meta["og:description"] ? { description: meta["og:description"].slice(0, 1000) } : {},
    external_ids: ids,
  };
  return draft;
}

function numberOr(text: string | undefined, fallback: number | undefined): number | null {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : (fallback ?? null);
}
