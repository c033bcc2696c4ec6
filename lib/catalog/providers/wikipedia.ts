import { z } from "zod";
import type { EntryDraft } from "../types.ts";
import { getJson } from "./http.ts";
import { type Provider, parseBody } from "./provider.ts";

const Summary = z.looseObject({
  type: z.string(),
  title: z.string(),
  description: z.string().optional(),
  extract: z.string().optional(),
  wikibase_item: z.string().optional(),
  thumbnail: z.looseObject({ source: z.string(), width: z.number(), height: z.number() }).optional(),
  originalimage: z.looseObject({ source: z.string(), width: z.number(), height: z.number() }).optional(),
  coordinates: z.looseObject({ lat: z.number(), lon: z.number() }).optional(),
  content_urls: z.looseObject({ desktop: z.looseObject({ page: z.string() }) }).optional(),
});

/** Wikipedia's REST summary: title, description, image, and coordinates (which make it a place). */
export const wikipedia: Provider = {
  id: "wikipedia",
  async lookup(ref, settings) {
    const id = ref.ids.find((i) => i.namespace.startsWith("wikipedia:"));
    if (!id || id.value.startsWith("curid:")) return null;
    const lang = ref.hints.lang ?? "en";
    const base = settings.baseUrl.replace("{lang}", lang);
    const body = await getJson(settings, `${base}/page/summary/${encodeURIComponent(id.value.replace(/ /g, "_"))}`);
    if (body === null) return null;
    const page = parseBody("wikipedia", Summary, body);
    if (page.type === "disambiguation") return null;
    const image = page.originalimage ?? page.thumbnail;
    const url = page.content_urls?.desktop.page ?? ref.canonicalUrl;
    const isPlace = page.coordinates !== undefined;
    const draft: EntryDraft = {
      domain: isPlace ? "places" : "articles",
      kind: isPlace ? "place" : "article",
      title: page.title,
      subtitle: page.description ?? null,
      creators: [],
      artwork: image ? { url: image.source, width: image.width, height: image.height, source: "wikipedia" } : null,
      platform_links: { wikipedia: { url, source: "wikipedia" } },
      canonical_url: url,
      attributes: {
        lang,
        ...(page.extract ? { description: page.extract.slice(0, 1000) } : {}),
        ...(page.coordinates ? { lat: page.coordinates.lat, lng: page.coordinates.lon } : {}),
      },
      external_ids: page.wikibase_item ? [{ namespace: "wikidata", value: page.wikibase_item }] : [],
    };
    return draft;
  },
};
