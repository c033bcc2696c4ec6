import type { ParsedRef } from "../types.ts";
import { bareHost, ref, segments, shortLink, slugToTitle } from "./shared.ts";

const SPOTIFY_PATH =
  /^\/(?:intl-[a-z]{2}(?:[-_][a-zA-Z]{2,4})?\/)?(?:embed\/)?(?:user\/[^/]+\/)?(track|album|artist|playlist|episode|show|audiobook)\/([0-9A-Za-z]{22})(?:\/|$)/;
const SPOTIFY_URI = /^spotify:(?:user:[^:]+:)?(track|album|artist|playlist|episode|show|audiobook):([0-9A-Za-z]{22})$/;
const APPLE_PATH =
  /^\/(?:([a-z]{2})\/)?(album|song|artist|playlist|music-video|station)\/(?:[^/]+\/)?((?:id)?\d+|pl\.[\w-]+|ra\.[\w-]+)\/?$/;
const YT_ID = /^[A-Za-z0-9_-]{11}$/;
const SOUNDCLOUD_RESERVED = new Set(
  "discover search stream you upload charts pages jobs settings messages notifications people tags".split(" "),
);

export function spotifyRef(kind: string, id: string): ParsedRef {
  const mapped = kind === "audiobook" ? "audiobook" : kind;
  return ref(
    "spotify",
    "music",
    mapped,
    [{ namespace: `spotify:${kind}`, value: id }],
    `https://open.spotify.com/${kind}/${id}`,
  );
}

export function recogniseSpotifyUri(input: string): ParsedRef | null {
  const match = SPOTIFY_URI.exec(input.trim());
  return match?.[1] && match[2] ? spotifyRef(match[1], match[2]) : null;
}

export function recogniseMusic(url: URL): ParsedRef | null {
  const host = bareHost(url);
  if (host === "open.spotify.com" || host === "play.spotify.com") {
    const match = SPOTIFY_PATH.exec(url.pathname);
    return match?.[1] && match[2] ? spotifyRef(match[1], match[2]) : null;
  }
  if (host === "embed.spotify.com") return recogniseSpotifyUri(url.searchParams.get("uri") ?? "");
  if (host === "spotify.link" || host === "spotify.app.link") return shortLink("spotify", "music", url);
  if (/^(?:(?:geo|embed|classical)\.)?music\.apple\.com$/.test(host) || host === "itunes.apple.com") return apple(url);
  if (host === "music.youtube.com") return youtubeMusic(url);
  if (/^(?:m\.)?youtube(?:-nocookie)?\.com$/.test(host) || host === "youtu.be") return youtube(url, host);
  if (host === "deezer.com") {
    const match = /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(track|album|artist|playlist|episode|show)\/(\d+)\/?$/.exec(
      url.pathname,
    );
    if (!match?.[1] || !match[2]) return null;
    const [kind, id] = [match[1], match[2]];
    return ref(
      "deezer",
      "music",
      kind,
      [{ namespace: `deezer:${kind}`, value: id }],
      `https://www.deezer.com/${kind}/${id}`,
    );
  }
  if (/^(deezer\.page\.link|dzr\.page\.link|link\.deezer\.com)$/.test(host)) return shortLink("deezer", "music", url);
  if (host === "soundcloud.com" || host === "m.soundcloud.com") return soundcloud(url);
  if (host === "on.soundcloud.com") return shortLink("soundcloud", "music", url);
  if (/^(listen\.|embed\.)?tidal\.com$/.test(host)) {
    const match = /^\/(?:browse\/)?(track|album|artist|playlist|video|mix)\/([0-9a-f-]+)(?:\/u)?\/?$/.exec(
      url.pathname,
    );
    if (!match?.[1] || !match[2]) return null;
    const [kind, id] = [match[1], match[2]];
    return ref(
      "tidal",
      "music",
      kind,
      [{ namespace: `tidal:${kind}`, value: id }],
      `https://tidal.com/browse/${kind}/${id}`,
    );
  }
  if (host.endsWith(".bandcamp.com")) return bandcamp(url, host);
  if (/^music\.amazon\.[a-z.]+$/.test(host)) return amazonMusic(url, host);
  if (/^(song\.link|album\.link|odesli\.co|pods\.link)$/.test(host)) return odesliPage(url);
  return null;
}

function apple(url: URL): ParsedRef | null {
  const match = APPLE_PATH.exec(url.pathname);
  if (!match?.[2] || !match[3]) return null;
  const country = match[1] ?? "us";
  const id = match[3].replace(/^id/, "");
  const track = url.searchParams.get("i");
  const slug = segments(url).length >= (match[1] ? 4 : 3) ? segments(url).at(-2) : undefined;
  const hints = slug && slug !== "_" ? { title: slugToTitle(slug) } : {};
  if (match[2] === "album" && track && /^\d+$/.test(track)) {
    return ref(
      "apple_music",
      "music",
      "track",
      [{ namespace: "apple:song", value: track }],
      `https://music.apple.com/${country}/album/${id}?i=${track}`,
      hints,
    );
  }
  const kind =
    {
      album: "album",
      song: "track",
      artist: "artist",
      playlist: "playlist",
      "music-video": "music_video",
      station: "station",
    }[match[2]] ?? "track";
  const ns =
    {
      album: "apple:album",
      song: "apple:song",
      artist: "apple:artist",
      playlist: "apple:playlist",
      "music-video": "apple:music_video",
      station: "apple:station",
    }[match[2]] ?? "apple:song";
  return ref(
    "apple_music",
    "music",
    kind,
    [{ namespace: ns, value: id }],
    `https://music.apple.com/${country}/${match[2]}/${id}`,
    hints,
  );
}

function youtube(url: URL, host: string): ParsedRef | null {
  const parts = segments(url);
  let id: string | null = null;
  if (host === "youtu.be") id = parts[0] ?? null;
  else if (url.pathname === "/watch") id = url.searchParams.get("v");
  else if (parts[0] && ["shorts", "embed", "live", "v", "e"].includes(parts[0])) id = parts[1] ?? null;
  if (id && YT_ID.test(id)) {
    // A YouTube video may be a song, a trailer or a talk: the domain is left open.
    return ref(
      "youtube",
      null,
      "video",
      [{ namespace: "youtube:video", value: id }],
      `https://www.youtube.com/watch?v=${id}`,
    );
  }
  const list = url.searchParams.get("list");
  if (url.pathname === "/playlist" && list) {
    return ref(
      "youtube",
      null,
      "playlist",
      [{ namespace: "youtube:playlist", value: list }],
      `https://www.youtube.com/playlist?list=${list}`,
    );
  }
  return null;
}

function youtubeMusic(url: URL): ParsedRef | null {
  const id = url.searchParams.get("v");
  if (url.pathname === "/watch" && id && YT_ID.test(id)) {
    return ref(
      "youtube_music",
      "music",
      "track",
      [{ namespace: "youtube:video", value: id }],
      `https://music.youtube.com/watch?v=${id}`,
    );
  }
  const list = url.searchParams.get("list");
  if (url.pathname === "/playlist" && list) {
    const kind = list.startsWith("OLAK5uy_") ? "album" : "playlist";
    return ref(
      "youtube_music",
      "music",
      kind,
      [{ namespace: "youtube:playlist", value: list }],
      `https://music.youtube.com/playlist?list=${list}`,
    );
  }
  const browse = /^\/browse\/(MPREb_[\w-]+)$/.exec(url.pathname);
  if (browse?.[1]) {
    return ref(
      "youtube_music",
      "music",
      "album",
      [{ namespace: "youtube_music:album", value: browse[1] }],
      `https://music.youtube.com/browse/${browse[1]}`,
    );
  }
  const channel = /^\/channel\/(UC[\w-]{22})$/.exec(url.pathname);
  if (channel?.[1]) {
    return ref(
      "youtube_music",
      "music",
      "artist",
      [{ namespace: "youtube:channel", value: channel[1] }],
      `https://music.youtube.com/channel/${channel[1]}`,
    );
  }
  return null;
}

function soundcloud(url: URL): ParsedRef | null {
  const match = /^\/([a-z0-9_-]+)(?:\/(sets)\/([a-z0-9_-]+)|\/([a-z0-9_-]+))?\/?$/.exec(url.pathname.toLowerCase());
  if (!match?.[1] || SOUNDCLOUD_RESERVED.has(match[1])) return null;
  const [user, set, track] = [match[1], match[3], match[4]];
  if (track && ["tracks", "albums", "sets", "reposts", "likes", "followers", "following"].includes(track)) return null;
  const path = set ? `${user}/sets/${set}` : track ? `${user}/${track}` : user;
  const kind = set ? "playlist" : track ? "track" : "artist";
  return ref(
    "soundcloud",
    "music",
    kind,
    [{ namespace: "soundcloud:permalink", value: path }],
    `https://soundcloud.com/${path}`,
    {
      title: slugToTitle(set ?? track ?? user),
      subtitle: set || track ? slugToTitle(user) : undefined,
    },
  );
}

function bandcamp(url: URL, host: string): ParsedRef | null {
  const artist = host.slice(0, -".bandcamp.com".length);
  if (!artist || artist === "daily" || artist === "www") return null;
  const match = /^\/(track|album)\/([a-z0-9-]+)\/?$/.exec(url.pathname);
  if (match?.[1] && match[2]) {
    const value = `${artist}/${match[1]}/${match[2]}`;
    return ref(
      "bandcamp",
      "music",
      match[1],
      [{ namespace: "bandcamp:url", value }],
      `https://${host}/${match[1]}/${match[2]}`,
      {
        title: slugToTitle(match[2]),
        subtitle: slugToTitle(artist),
      },
    );
  }
  if (url.pathname === "/" || url.pathname === "/music") {
    return ref("bandcamp", "music", "artist", [{ namespace: "bandcamp:url", value: artist }], `https://${host}/`, {
      title: slugToTitle(artist),
    });
  }
  return null;
}

function amazonMusic(url: URL, host: string): ParsedRef | null {
  const match = /^\/(albums|tracks|artists|playlists)\/([A-Z0-9]{10})(?:\/[^/]*)?\/?$/.exec(url.pathname);
  if (!match?.[1] || !match[2]) return null;
  const track = url.searchParams.get("trackAsin");
  const asin = track && /^[A-Z0-9]{10}$/.test(track) ? track : match[2];
  const kind = track ? "track" : match[1].replace(/s$/, "");
  return ref(
    "amazon_music",
    "music",
    kind,
    [{ namespace: "amazon:asin", value: asin }],
    `https://${host}/${match[1]}/${match[2]}${track ? `?trackAsin=${track}` : ""}`,
  );
}

function odesliPage(url: URL): ParsedRef | null {
  const match = /^\/(?:[a-z]{2}\/)?(s|i|d)\/([A-Za-z0-9]+)\/?$/.exec(url.pathname);
  if (match?.[1] === "s" && match[2] && /^[0-9A-Za-z]{22}$/.test(match[2])) return spotifyRef("track", match[2]);
  if (match?.[1] === "i" && match[2] && /^\d+$/.test(match[2])) {
    return ref(
      "apple_music",
      "music",
      "track",
      [{ namespace: "apple:song", value: match[2] }],
      `https://music.apple.com/us/song/${match[2]}`,
    );
  }
  if (match?.[1] === "d" && match[2] && /^\d+$/.test(match[2])) {
    return ref(
      "deezer",
      "music",
      "track",
      [{ namespace: "deezer:track", value: match[2] }],
      `https://www.deezer.com/track/${match[2]}`,
    );
  }
  return shortLink("odesli", "music", url);
}
