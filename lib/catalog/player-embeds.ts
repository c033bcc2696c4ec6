import { EMBED_PLATFORMS } from "../../registry/directives/play-song.ts";

export type EmbedPlatform = (typeof EMBED_PLATFORMS)[number];

export interface Embed {
  platform: EmbedPlatform;
  embed_url: string;
  open_url: string;
}

const YOUTUBE_ID = /^[\w-]{11}$/;

/**
 * The player URL of a track page, per platform's documented embed form; null for a link that is
 * not a single track (an album, a search page) or a platform without an embeddable player.
 */
export function embedFor(link: string): Embed | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^(www|m)\./, "");
  const parts = url.pathname.split("/").filter(Boolean);
  if (host === "open.spotify.com") {
    const at = parts.indexOf("track");
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && /^[A-Za-z0-9]{22}$/.test(id)
      ? { platform: "spotify", embed_url: `https://open.spotify.com/embed/track/${id}`, open_url: link }
      : null;
  }
  if (host === "youtube.com" || host === "music.youtube.com" || host === "youtu.be") {
    const id =
      host === "youtu.be" ? parts[0] : (url.searchParams.get("v") ?? (parts[0] === "embed" ? parts[1] : undefined));
    return id && YOUTUBE_ID.test(id)
      ? { platform: "youtube", embed_url: `https://www.youtube-nocookie.com/embed/${id}`, open_url: link }
      : null;
  }
  if (host === "music.apple.com") {
    // Song pages (/us/song/<slug>/<id>) and album pages with ?i=<song id> both embed.
    const isSong = parts.includes("song") || url.searchParams.has("i");
    return isSong
      ? {
          platform: "apple_music",
          embed_url: `https://embed.music.apple.com${url.pathname}${url.search}`,
          open_url: link,
        }
      : null;
  }
  if (host === "deezer.com") {
    const at = parts.indexOf("track");
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && /^\d+$/.test(id)
      ? { platform: "deezer", embed_url: `https://widget.deezer.com/widget/auto/track/${id}`, open_url: link }
      : null;
  }
  if (host === "soundcloud.com" && parts.length >= 2 && !["sets", "discover", "search"].includes(parts[1] ?? "")) {
    const track = `https://soundcloud.com/${parts.slice(0, 2).join("/")}`;
    return {
      platform: "soundcloud",
      embed_url: `https://w.soundcloud.com/player/?url=${encodeURIComponent(track)}`,
      open_url: link,
    };
  }
  return null;
}

/** Embeds of several links, one per platform, in the preferred platform order. */
export function embedsFor(links: Iterable<string>): Embed[] {
  const byPlatform = new Map<EmbedPlatform, Embed>();
  for (const link of links) {
    const embed = embedFor(link);
    if (embed && !byPlatform.has(embed.platform)) byPlatform.set(embed.platform, embed);
  }
  return EMBED_PLATFORMS.flatMap((platform) => {
    const embed = byPlatform.get(platform);
    return embed ? [embed] : [];
  });
}
