import { ApiError } from "../http/problem.ts";
import type { ToolHandler } from "./context.ts";

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

/** With no link in the catalog, a platform search for the title still lets the member play it. */
const searchUrl = (row: Record<string, unknown>) =>
  `https://music.youtube.com/search?q=${encodeURIComponent([row.title, row.subtitle].filter(Boolean).join(" "))}`;

export const playSong: ToolHandler<"play_song"> = async ({ tx, input }) => {
  const { song_id: songId, url } = input;
  if ((songId === undefined) === (url === undefined)) {
    throw new ApiError("invalid_request", "Give exactly one of song_id or url.", {
      errors: [{ pointer: "", code: "one_of", message: "Send song_id or url, not both and not neither." }],
    });
  }
  if (url !== undefined) return { type: "play_media", url, title: null, artwork: null, song_id: null };
  const [row] = await tx.query<CatalogRow>("select to_jsonb(t) as r from public.catalog_entries t where t.id = $1", [
    songId,
  ]);
  if (!row) throw new ApiError("not_found", "No catalog entry with this song_id.");
  const entry = row.r;
  return {
    type: "play_media",
    url: platformLink(entry) ?? firstUrl(entry, LINK_KEYS) ?? searchUrl(entry),
    title: typeof entry.title === "string" ? entry.title : null,
    artwork: firstUrl(entry, ARTWORK_KEYS),
    song_id: songId,
  };
};

export const listen: ToolHandler<"listen"> = async ({ input }) => ({ type: "start_listening", lang: input.lang ?? null });

export const openUrl: ToolHandler<"open_url"> = async ({ input }) => ({ type: "open_url", url: input.url });
