import { ApiError } from "../http/problem.ts";
import type { ToolHandler } from "./context.ts";
import { embedsFor } from "./player-embeds.ts";
import { searchCatalog } from "./search-query.ts";

/**
 * Browser directives: the server validates the input, reads what the directive needs, and
 * answers the directive for the browser to carry out. Nothing is played, opened or recorded here.
 */
type CatalogRow = { r: Record<string, unknown> };

// Catalog rows are read whole (to_jsonb) so links and artwork are picked up under whichever
// column the catalog carries them, without this file naming a column the schema may not have.
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

/** With no link in the catalog, a platform search for the title still lets the member open it. */
const searchUrl = (row: Record<string, unknown>) =>
  `https://music.youtube.com/search?q=${encodeURIComponent([row.title, row.subtitle].filter(Boolean).join(" "))}`;

/** Every platform link of the entry, by platform, from the map ({spotify: {url}} or {spotify: url}). */
function allLinks(row: Record<string, unknown>): Record<string, string> {
  const links: Record<string, string> = {};
  for (const key of LINK_MAP_KEYS) {
    const value = row[key];
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    for (const [platform, link] of Object.entries(value)) {
      const url = isHttpUrl(link) ? link : isHttpUrl((link as { url?: unknown } | null)?.url) ? (link as { url: string }).url : null;
      if (url && !(platform in links)) links[platform] = url;
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
  new ApiError("invalid_request", "Give exactly one of song_id, url or query.", {
    errors: [
      {
        pointer: "",
        code: "one_of",
        message: "Send song_id (a catalog entry id), url (a track link) or query (a phrase), exactly one.",
      },
    ],
  });

export const playSong: ToolHandler<"play_song"> = async ({ tx, input }) => {
  const { url, query } = input;
  let songId = input.song_id;
  if ([songId, url, query].filter((value) => value !== undefined).length !== 1) throw oneOf();
  if (url !== undefined) {
    return {
      type: "play_media",
      url,
      title: null,
      artwork: null,
      song_id: null,
      embeds: embedsFor([url]),
      preview_url: null,
      links: {},
    };
  }
  if (query !== undefined) {
    const { hits } = await searchCatalog(tx, { query, domain: "music", limit: 1 });
    const best = hits[0];
    if (!best) {
      throw new ApiError("not_found", `No song in the catalog matches "${query}". Resolve a link to it first (POST /resolve), then pass its song_id.`);
    }
    songId = best.id;
  }
  const [row] = await tx.query<CatalogRow>("select to_jsonb(t) as r from public.catalog_entries t where t.id = $1", [
    songId,
  ]);
  if (!row) throw new ApiError("not_found", "No catalog entry with this song_id.");
  const entry = row.r;
  const links = allLinks(entry);
  const own = firstUrl(entry, LINK_KEYS);
  return {
    type: "play_media",
    url: platformLink(entry) ?? own ?? searchUrl(entry),
    title: typeof entry.title === "string" ? entry.title : null,
    artwork: firstUrl(entry, ARTWORK_KEYS),
    song_id: songId ?? null,
    embeds: embedsFor([...Object.values(links), ...(own ? [own] : [])]),
    preview_url: previewUrl(entry),
    links,
  };
};

export const listen: ToolHandler<"listen"> = async ({ input }) => ({ type: "start_listening", lang: input.lang ?? null });

export const openUrl: ToolHandler<"open_url"> = async ({ input }) => ({ type: "open_url", url: input.url });
