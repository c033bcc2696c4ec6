import { z } from "zod";
import type { EntryDraft, ExternalId, PlatformLink } from "../types.ts";
import { getJson, providerUrl } from "./http.ts";
import { type Provider, parseBody } from "./provider.ts";

const Entity = z.looseObject({
  id: z.string(),
  type: z.string(),
  title: z.string().optional(),
  artistName: z.string().optional(),
  thumbnailUrl: z.string().optional(),
  thumbnailWidth: z.number().optional(),
  thumbnailHeight: z.number().optional(),
  apiProvider: z.string().optional(),
});
const Answer = z.looseObject({
  entityUniqueId: z.string(),
  pageUrl: z.string().optional(),
  linksByPlatform: z.record(z.string(), z.looseObject({ url: z.string(), entityUniqueId: z.string().optional() })),
  entitiesByUniqueId: z.record(z.string(), Entity),
});

const PLATFORMS: Record<string, string> = {
  spotify: "spotify",
  appleMusic: "apple_music",
  itunes: "itunes",
  youtube: "youtube",
  youtubeMusic: "youtube_music",
  deezer: "deezer",
  tidal: "tidal",
  amazonMusic: "amazon_music",
  amazonStore: "amazon",
  soundcloud: "soundcloud",
  pandora: "pandora",
  napster: "napster",
  yandex: "yandex_music",
  audius: "audius",
  anghami: "anghami",
  boomplay: "boomplay",
  audiomack: "audiomack",
  bandcamp: "bandcamp",
};
const NAMESPACES: Record<string, string> = {
  SPOTIFY_SONG: "spotify:track",
  SPOTIFY_ALBUM: "spotify:album",
  ITUNES_SONG: "apple:song",
  ITUNES_ALBUM: "apple:album",
  DEEZER_SONG: "deezer:track",
  DEEZER_ALBUM: "deezer:album",
  TIDAL_SONG: "tidal:track",
  TIDAL_ALBUM: "tidal:album",
  AMAZON_SONG: "amazon:asin",
  AMAZON_ALBUM: "amazon:asin",
  YOUTUBE_VIDEO: "youtube:video",
};
const ARTWORK_PREFERENCE = ["itunes", "deezer", "spotify", "tidal", "youtube"];

/** Odesli (song.link): one call gives the same song's links on every platform. */
export const odesli: Provider = {
  id: "odesli",
  async lookup(ref, settings) {
    if (ref.domain !== "music" && ref.platform !== "youtube") return null;
    const url = providerUrl(settings.baseUrl, "/links", {
      url: ref.canonicalUrl,
      userCountry: "US",
      songIfSingle: "true",
    });
    const body = await getJson(settings, url);
    if (body === null) return null;
    const answer = parseBody("odesli", Answer, body);
    const main = answer.entitiesByUniqueId[answer.entityUniqueId];
    if (!main?.title) return null;
    const links: Record<string, PlatformLink> = {};
    for (const [platform, link] of Object.entries(answer.linksByPlatform)) {
      const key = PLATFORMS[platform];
      if (key) links[key] = { url: link.url, source: "odesli" };
    }
    const ids: ExternalId[] = [];
    for (const key of Object.keys(answer.entitiesByUniqueId)) {
      const [type, id] = key.split("::");
      const namespace = type ? NAMESPACES[type] : undefined;
      if (namespace && id) ids.push({ namespace, value: id });
    }
    const entities = Object.values(answer.entitiesByUniqueId).filter((e) => e.thumbnailUrl);
    entities.sort(
      (a, b) => rank(a.apiProvider) - rank(b.apiProvider) || (b.thumbnailWidth ?? 0) - (a.thumbnailWidth ?? 0),
    );
    const art = entities[0];
    const draft: EntryDraft = {
      domain: "music",
      kind: main.type === "album" ? "album" : "track",
      title: main.title,
      creators: main.artistName ? [{ name: main.artistName, role: "artist" }] : [],
      artwork: art?.thumbnailUrl
        ? {
            url: art.thumbnailUrl,
            width: art.thumbnailWidth ?? null,
            height: art.thumbnailHeight ?? null,
            source: art.apiProvider ?? "odesli",
          }
        : null,
      platform_links: links,
      attributes: answer.pageUrl ? { share_url: answer.pageUrl } : {},
      external_ids: ids,
    };
    return draft;
  },
};

function rank(provider: string | undefined): number {
  const index = provider ? ARTWORK_PREFERENCE.indexOf(provider) : -1;
  return index === -1 ? ARTWORK_PREFERENCE.length : index;
}
