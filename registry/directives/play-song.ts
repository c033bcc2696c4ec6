import { z } from "zod";
import { defineDirective } from "../define.ts";

const httpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain });

/** Platforms with an embeddable player, in the order the browser prefers them. */
export const EMBED_PLATFORMS = ["spotify", "youtube", "apple_music", "deezer", "soundcloud"] as const;

const embed = z.object({
  platform: z.enum(EMBED_PLATFORMS),
  embed_url: httpUrl.describe("URL for an <iframe> player of this platform."),
  open_url: httpUrl.describe('The track\'s page on the platform (the fallback: "Open in …").'),
});

export const playSong = defineDirective({
  name: "play_song",
  description:
    'Play a song in the member\'s browser. Give exactly one of song_id (a catalog entry id from resolve or search), url (a link to a track on a streaming platform) or query (a phrase such as "Kitchen Kid Cudi", resolved through the catalog search).',
  input: z.strictObject({
    song_id: z
      .uuid({
        error:
          "song_id must be a catalog entry id (a UUID from resolve or search); to play by name, send the phrase as query instead.",
      })
      .optional()
      .describe("Catalog entry id, as returned by resolve or search."),
    // Any host: a link of no known platform is checked by the SSRF guard before it is played.
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .describe(
        "A link to the track on a streaming platform (e.g. https://open.spotify.com/track/…), or an https link to an audio file; a link of no known platform that is not audio is refused (422 not_audio).",
      ),
    query: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("A phrase naming the song (title, artist); the best music match of the catalog search is played."),
  }),
  directive: z
    .strictObject({
      type: z.literal("play_media").describe("Always play_media."),
      playable: z
        .boolean()
        .describe(
          "True when the browser can play it here: an embed, a preview or an audio file. False: show `reason` and `links`.",
        ),
      reason: z.string().nullable().describe("Why nothing can play (when playable is false), else null."),
      url: httpUrl
        .nullable()
        .describe(
          "The link to open in a new tab: the url given, else the entry's best platform link; null when the catalog holds none. Never a search page, and never media for an <audio> element.",
        ),
      title: z.string().nullable().describe("The catalog title; null when the url matches no catalog entry."),
      artwork: httpUrl.nullable().describe("Artwork image URL from the catalog, or null."),
      song_id: z.uuid().nullable().describe("The catalog entry played (also when found by its url), or null."),
      embeds: z
        .array(embed)
        .describe(
          "Embeddable players, best first (Spotify, YouTube, Apple Music, Deezer, SoundCloud): the browser shows the first in an <iframe>.",
        ),
      preview_url: httpUrl
        .nullable()
        .describe(
          "Audio for an <audio> element: the catalog's short preview (iTunes), or the url given when it is an audio file (checked by its Content-Type); else null.",
        ),
      links: z.record(z.string(), httpUrl).describe("Every platform link the catalog holds, by platform."),
    })
    .describe(
      "Play a track: the browser shows the first embed, else plays preview_url; when playable is false it shows reason and the links.",
    ),
  scope: "items:read",
});
