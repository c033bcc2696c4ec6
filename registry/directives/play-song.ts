import { z } from "zod";
import { defineDirective } from "../define.ts";

const httpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain });

/** Platforms with an embeddable player, in the order the browser prefers them. */
export const EMBED_PLATFORMS = ["spotify", "youtube", "apple_music", "deezer", "soundcloud"] as const;

const embed = z.object({
  platform: z.enum(EMBED_PLATFORMS),
  embed_url: httpUrl.describe("URL for an <iframe> player of this platform."),
  open_url: httpUrl.describe("The track's page on the platform (the fallback: \"Open in …\")."),
});

export const playSong = defineDirective({
  name: "play_song",
  description:
    "Play a song in the member's browser. Give exactly one of song_id (a catalog entry id from resolve or search), url (a link to a track on a streaming platform) or query (a phrase such as \"Kitchen Kid Cudi\", resolved through the catalog search).",
  input: z.strictObject({
    song_id: z
      .uuid({
        error:
          "song_id must be a catalog entry id (a UUID from resolve or search); to play by name, send the phrase as query instead.",
      })
      .optional()
      .describe("Catalog entry id, as returned by resolve or search."),
    url: httpUrl.max(2000).optional().describe("A link to the track, e.g. https://open.spotify.com/track/…"),
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
      url: httpUrl.describe(
        "What the browser opens when no player fits: the entry's own link, else a platform search for its title.",
      ),
      title: z.string().nullable().describe("The catalog title; null when the url matches no catalog entry."),
      artwork: httpUrl.nullable().describe("Artwork image URL from the catalog, or null."),
      song_id: z.uuid().nullable().describe("The catalog entry played, or null when only a url was given."),
      embeds: z
        .array(embed)
        .describe(
          "Embeddable players, best first (Spotify, YouTube, Apple Music, Deezer, SoundCloud): the browser shows the first in an <iframe>.",
        ),
      preview_url: httpUrl
        .nullable()
        .describe("A short audio preview the catalog holds (plays in an <audio> element), or null."),
      links: z.record(z.string(), httpUrl).describe("Every platform link the catalog holds, by platform."),
    })
    .describe("Play a track: the browser shows the first embed, else plays preview_url, else offers to open url."),
  scope: "items:read",
});
