import type { Queryable } from "../db/index.ts";
import { DomainError } from "../errors/domain-error.ts";
import { type AudioProbe, probeAudio } from "../catalog/audio-probe.ts";
import type { ToolHandler } from "./context.ts";
import { type Embed, embedFor, embedsFor } from "../catalog/player-embeds.ts";
import { findByIds, readEntries } from "../catalog/catalog-store.ts";
import { idLink } from "../catalog/id-links.ts";
import { classify } from "../catalog/recognise.ts";
import type { ParsedRef } from "../catalog/types.ts";
import { searchCatalog } from "../catalog/search-query.ts";

/**
 * Browser directives: the server validates the input, reads what the directive needs, and
 * answers the directive for the browser to carry out. Nothing is played, opened or recorded here.
 */
// Links and artwork are looked up under each name the catalog has carried them by.
const LINK_KEYS = ["canonical_url", "url", "link", "source_url"] as const;
const LINK_MAP_KEYS = ["platform_links", "links"] as const;
// Platforms that play in a browser tab, most open first (YouTube plays without an account).
const PLAY_ORDER = ["youtube_music", "youtube", "spotify", "apple_music", "deezer", "soundcloud", "tidal", "bandcamp"];
const ARTWORK_KEYS = ["artwork_url", "artwork", "image_url"] as const;

const isHttpUrl = (value: unknown): value is string => typeof value === "string" && /^https?:\/\/\S+$/i.test(value);

function firstUrl(row: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = row[key];
    if (isHttpUrl(value)) return value;
    if (value && typeof value === "object" && isHttpUrl((value as { url?: unknown }).url)) {
      return (value as { url: string }).url;
    }
  }
  return null;
}

/** A platform link from a map ({spotify: {url}} or {spotify: url}) or a list ([{platform, url}]), players first. */
function platformLink(row: Record<string, unknown>): string | null {
  for (const key of LINK_MAP_KEYS) {
    const links = row[key];
    const entries: [string, unknown][] = Array.isArray(links)
      ? links.map((value) => [String((value as { platform?: unknown } | null)?.platform ?? ""), value])
      : links && typeof links === "object"
        ? Object.entries(links)
        : [];
    const rank = (platform: string) => {
      const at = PLAY_ORDER.indexOf(platform);
      return at === -1 ? PLAY_ORDER.length : at;
    };
    const values = entries.sort(([a], [b]) => rank(a) - rank(b)).map(([, value]) => value);
    for (const value of values) {
      if (isHttpUrl(value)) return value;
      if (value && typeof value === "object" && isHttpUrl((value as { url?: unknown }).url)) {
        return (value as { url: string }).url;
      }
    }
  }
  return null;
}

/** Every platform link of the entry, by platform: its link map first, then links built from its ids. */
function allLinks(row: Record<string, unknown>): Record<string, string> {
  const links: Record<string, string> = {};
  for (const key of LINK_MAP_KEYS) {
    const value = row[key];
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    for (const [platform, link] of Object.entries(value)) {
      const url = isHttpUrl(link)
        ? link
        : isHttpUrl((link as { url?: unknown } | null)?.url)
          ? (link as { url: string }).url
          : null;
      if (url && !(platform in links)) links[platform] = url;
    }
  }
  const ids = row.external_ids;
  if (ids && typeof ids === "object" && !Array.isArray(ids)) {
    for (const [namespace, id] of Object.entries(ids)) {
      const known = typeof id === "string" ? idLink(namespace, id) : null;
      if (known && !(known[0] in links)) links[known[0]] = known[1];
    }
  }
  return links;
}

function previewUrl(row: Record<string, unknown>): string | null {
  const attributes = row.attributes as Record<string, unknown> | null | undefined;
  const value = attributes?.preview_url ?? row.preview_url;
  return typeof value === "string" && /^https:\/\/\S+$/.test(value) ? value : null;
}

const oneOf = () =>
  new DomainError("invalid_request", "Give exactly one of song_id, url or query.", {
    errors: [
      {
        pointer: "",
        code: "one_of",
        message: "Send song_id (a catalog entry id), url (a track link) or query (a phrase), exactly one.",
      },
    ],
  });

type PlayInput = { song_id?: string; url?: string; query?: string };
type PlayMedia = {
  type: "play_media";
  playable: boolean;
  reason: string | null;
  url: string | null;
  title: string | null;
  artwork: string | null;
  song_id: string | null;
  embeds: Embed[];
  preview_url: string | null;
  links: Record<string, string>;
};

/** What play_song learns before its transaction: which catalog entry a url names, or that it is an audio file. */
type Prepared = { ref: ParsedRef | null; audio: AudioProbe | null };

function refOf(url: string): ParsedRef | null {
  try {
    const classified = classify(url);
    return classified.type === "phrase" ? null : classified.ref;
  } catch {
    return null;
  }
}

/** A url of no known platform is played only when it is an audio file, checked over the network (no transaction open). */
async function prepare({ input }: { input: PlayInput }): Promise<Prepared> {
  if (input.url === undefined) return { ref: null, audio: null };
  const ref = refOf(input.url);
  if (ref && ref.platform !== "website") return { ref, audio: null };
  return { ref: null, audio: await probeAudio(input.url) };
}

const NOT_PLAYABLE =
  "The catalog holds no player, preview or audio file for this song yet; open one of its links, or resolve a link to the song (POST /resolve) to add one.";

function fromEntry(
  entry: Record<string, unknown>,
  songId: string,
  given?: { url: string; embed: Embed | null },
): PlayMedia {
  const links = allLinks(entry);
  const own = firstUrl(entry, LINK_KEYS);
  // The link the member gave plays first; the entry's other players follow.
  const embeds = embedsFor([...(given ? [given.url] : []), ...Object.values(links), ...(own ? [own] : [])]);
  if (given?.embed)
    embeds.sort((a, b) => Number(b.platform === given.embed?.platform) - Number(a.platform === given.embed?.platform));
  const preview = previewUrl(entry);
  const playable = embeds.length > 0 || preview !== null;
  return {
    type: "play_media",
    playable,
    reason: playable ? null : NOT_PLAYABLE,
    url: given?.url ?? platformLink(entry) ?? own ?? Object.values(links)[0] ?? null,
    title: typeof entry.title === "string" ? entry.title : null,
    artwork: firstUrl(entry, ARTWORK_KEYS),
    song_id: songId,
    embeds,
    preview_url: preview,
    links,
  };
}

async function readEntry(tx: Queryable, id: string): Promise<Record<string, unknown> | null> {
  const [entry] = await readEntries(tx, [id]);
  return entry ?? null;
}

/** play_song by url: the catalog's entry when it knows the link's work, else the link's own player or audio. */
async function playUrl(tx: Queryable, url: string, prepared: Prepared): Promise<PlayMedia> {
  if (prepared.audio) {
    if (!prepared.audio.ok) {
      throw new DomainError("invalid_request", prepared.audio.reason, {
        errors: [{ pointer: "/url", code: "not_audio", message: prepared.audio.reason }],
      });
    }
    return {
      type: "play_media",
      playable: true,
      reason: null,
      url,
      title: null,
      artwork: null,
      song_id: null,
      embeds: [],
      preview_url: prepared.audio.url,
      links: {},
    };
  }
  const ref = prepared.ref;
  const embed = embedFor(ref?.canonicalUrl ?? url) ?? embedFor(url);
  const known = ref ? await findByIds(tx, ref.ids) : null;
  const entry = known ? await readEntry(tx, known.id) : null;
  if (entry && known) return fromEntry(entry, known.id, { url, embed });
  const links = ref ? { [ref.platform]: ref.canonicalUrl } : {};
  return {
    type: "play_media",
    playable: embed !== null,
    reason: embed
      ? null
      : `${ref?.platform ?? "This platform"} has no player a page can embed for this link (only single tracks on Spotify, YouTube, Apple Music, Deezer and SoundCloud do); open it instead.`,
    url,
    title: ref?.hints.title ?? null,
    artwork: null,
    song_id: null,
    embeds: embed ? [embed] : [],
    preview_url: null,
    links,
  };
}

export const playSong: ToolHandler<"play_song"> = Object.assign(
  async ({ tx, input, prepared }: { tx: Queryable; input: PlayInput; prepared?: unknown }) => {
    const { url, query } = input;
    let songId = input.song_id;
    if ([songId, url, query].filter((value) => value !== undefined).length !== 1) throw oneOf();
    if (url !== undefined)
      return playUrl(tx, url, (prepared as Prepared | undefined) ?? { ref: refOf(url), audio: null });
    if (query !== undefined) {
      const { hits } = await searchCatalog(tx, { query, domain: "music", limit: 1 });
      const best = hits[0];
      if (!best) {
        throw new DomainError(
          "not_found",
          `No song in the catalog matches "${query}". Resolve a link to it first (POST /resolve), then pass its song_id.`,
        );
      }
      songId = best.id;
    }
    const entry = songId ? await readEntry(tx, songId) : null;
    if (!entry || !songId) throw new DomainError("not_found", "No catalog entry with this song_id.");
    return fromEntry(entry, songId);
  },
  { prepare },
);

export const listen: ToolHandler<"listen"> = async ({ input }) => ({
  type: "start_listening",
  lang: input.lang ?? null,
});

export const openUrl: ToolHandler<"open_url"> = async ({ input }) => ({ type: "open_url", url: input.url });
