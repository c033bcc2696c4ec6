import { z } from "zod";
import type { EntryDraft } from "../types.ts";
import { foundNothing, getJson, providerUrl } from "./http.ts";
import { idOf, type Provider, parseBody } from "./provider.ts";

const Result = z.looseObject({
  wrapperType: z.string(),
  kind: z.string().optional(),
  trackId: z.number().optional(),
  collectionId: z.number().optional(),
  artistId: z.number().optional(),
  trackName: z.string().optional(),
  collectionName: z.string().optional(),
  artistName: z.string().optional(),
  artistViewUrl: z.string().optional(),
  trackViewUrl: z.string().optional(),
  collectionViewUrl: z.string().optional(),
  artworkUrl100: z.string().optional(),
  previewUrl: z.string().optional(),
  releaseDate: z.string().optional(),
  trackTimeMillis: z.number().optional(),
  trackNumber: z.number().optional(),
  primaryGenreName: z.string().optional(),
});
const Answer = z.looseObject({ resultCount: z.number(), results: z.array(Result) });

/** Apple artwork URLs carry their size: ask for 600×600 instead of the 100×100 thumbnail. */
const bigArtwork = (url: string) => url.replace(/\/\d+x\d+bb\.(jpg|png|webp)$/, "/600x600bb.jpg");
const stripTracking = (url: string) => url.replace(/[?&]uo=\d+/, "").replace(/\?$/, "");

function toDraft(result: z.output<typeof Result>): EntryDraft | null {
  const isTrack = result.wrapperType === "track" && result.trackId !== undefined && result.trackName;
  const isAlbum = result.wrapperType === "collection" && result.collectionId !== undefined && result.collectionName;
  if (!isTrack && !isAlbum) return null;
  const title = (isTrack ? result.trackName : result.collectionName?.replace(/ - (Single|EP)$/, "")) ?? "";
  const link = isTrack ? result.trackViewUrl : result.collectionViewUrl;
  return {
    domain: "music",
    kind: isTrack ? "track" : "album",
    title,
    subtitle: isTrack ? (result.collectionName ?? null) : (result.artistName ?? null),
    creators: result.artistName
      ? [
          {
            name: result.artistName,
            role: "artist",
            links: result.artistViewUrl ? { apple_music: stripTracking(result.artistViewUrl) } : {},
          },
        ]
      : [],
    artwork: result.artworkUrl100
      ? { url: bigArtwork(result.artworkUrl100), width: 600, height: 600, source: "itunes" }
      : null,
    platform_links: link ? { apple_music: { url: stripTracking(link), source: "itunes" } } : {},
    canonical_url: link ? stripTracking(link) : null,
    release_date: result.releaseDate?.slice(0, 10) ?? null,
    attributes: {
      ...(isTrack ? { duration_ms: result.trackTimeMillis ?? null, track_number: result.trackNumber ?? null } : {}),
      // A 30-second preview play_song can hand to an <audio> element.
      ...(isTrack && result.previewUrl?.startsWith("https://") ? { preview_url: result.previewUrl } : {}),
      ...(result.primaryGenreName ? { genre: result.primaryGenreName } : {}),
    },
    external_ids: isTrack
      ? [{ namespace: "apple:song", value: String(result.trackId) }]
      : [{ namespace: "apple:album", value: String(result.collectionId) }],
  };
}

export const itunes: Provider = {
  id: "itunes",
  async lookup(ref, settings) {
    const id = idOf(ref, "apple:song") ?? idOf(ref, "apple:album");
    if (!id) return null;
    const body = await getJson(
      settings,
      providerUrl(settings.baseUrl, "/lookup", { id, country: "US" }),
      foundNothing("results"),
    );
    if (body === null) return null;
    const answer = parseBody("itunes", Answer, body);
    const first = answer.results[0];
    return first ? toDraft(first) : null;
  },
  async search(phrase, domain, settings) {
    if (domain && domain !== "music") return [];
    const url = providerUrl(settings.baseUrl, "/search", {
      term: phrase,
      media: "music",
      entity: "song",
      limit: 5,
      country: "US",
    });
    const body = await getJson(settings, url, foundNothing("results"));
    if (body === null) return [];
    return parseBody("itunes", Answer, body).results.flatMap((result) => toDraft(result) ?? []);
  },
};
