import { z } from "zod";
import type { EntryDraft } from "../types.ts";
import { coverArtBaseUrl } from "./config.ts";
import { ProviderError } from "./errors.ts";
import { foundNothing, getJson, providerUrl } from "./http.ts";
import { type Provider, parseBody } from "./provider.ts";

const Recording = z.looseObject({
  id: z.string(),
  title: z.string(),
  score: z.number().optional(),
  length: z.number().nullable().optional(),
  "first-release-date": z.string().optional(),
  "artist-credit": z
    .array(
      z.looseObject({ name: z.string(), joinphrase: z.string().optional(), artist: z.looseObject({ id: z.string() }) }),
    )
    .optional(),
  releases: z.array(z.looseObject({ id: z.string(), title: z.string() })).optional(),
  isrcs: z.array(z.string()).optional(),
});
const Answer = z.looseObject({ recordings: z.array(Recording) });
const CoverArt = z.looseObject({
  images: z.array(
    z.looseObject({ front: z.boolean(), image: z.string(), thumbnails: z.record(z.string(), z.string()).optional() }),
  ),
});

/** MusicBrainz recordings (CC0 facts), with the release's front cover from the Cover Art Archive. */
export const musicbrainz: Provider = {
  id: "musicbrainz",
  async search(phrase, domain, settings) {
    if (domain && domain !== "music") return [];
    const body = await getJson(
      settings,
      providerUrl(settings.baseUrl, "/recording", { query: phrase, fmt: "json", limit: 5 }),
      foundNothing("recordings"),
    );
    if (body === null) return [];
    const drafts = parseBody("musicbrainz", Answer, body).recordings.map(toDraft);
    const first = drafts[0];
    const release = first?.attributes?.release_mbid;
    if (first && typeof release === "string") first.artwork = await coverArt(settings, release);
    return drafts;
  },
};

function toDraft(recording: z.output<typeof Recording>): EntryDraft {
  const credits = recording["artist-credit"] ?? [];
  const release = recording.releases?.[0];
  const date = recording["first-release-date"];
  return {
    domain: "music",
    kind: "track",
    title: recording.title,
    subtitle: release?.title ?? null,
    creators: credits.map((c) => ({
      name: c.name,
      role: "artist",
      links: { musicbrainz: `https://musicbrainz.org/artist/${c.artist.id}` },
    })),
    platform_links: {
      musicbrainz: { url: `https://musicbrainz.org/recording/${recording.id}`, source: "musicbrainz" },
    },
    release_date: date && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(date) ? date : null,
    attributes: { duration_ms: recording.length ?? null, ...(release ? { release_mbid: release.id } : {}) },
    external_ids: [
      { namespace: "mb:recording", value: recording.id },
      ...(recording.isrcs ?? []).map((isrc) => ({ namespace: "isrc", value: isrc.toUpperCase() })),
    ],
  };
}

/** Cover art is a nicety: its absence or failure never fails the search. */
async function coverArt(
  settings: Parameters<NonNullable<Provider["search"]>>[2],
  release: string,
): Promise<EntryDraft["artwork"]> {
  try {
    const body = await getJson(settings, `${coverArtBaseUrl()}/release/${release}`);
    if (body === null) return null;
    const images = parseBody("musicbrainz", CoverArt, body).images;
    const front = images.find((image) => image.front) ?? images[0];
    if (!front) return null;
    const url = front.thumbnails?.["500"] ?? front.thumbnails?.large ?? front.image;
    return {
      url,
      width: front.thumbnails?.["500"] ? 500 : null,
      height: front.thumbnails?.["500"] ? 500 : null,
      source: "coverartarchive",
    };
  } catch (error) {
    if (error instanceof ProviderError) return null;
    throw error;
  }
}
