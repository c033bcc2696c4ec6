import { z } from "zod";
import { defineDirective } from "../define.ts";

const httpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.domain });

export const playSong = defineDirective({
  name: "play_song",
  description:
    "Play a song in the member's browser. Give song_id (a catalog entry id from resolve or search) or url (a link to a track on a streaming platform), exactly one.",
  input: z.strictObject({
    song_id: z.uuid().optional().describe("Catalog entry id, as returned by resolve or search."),
    url: httpUrl.max(2000).optional().describe("A link to the track, e.g. https://open.spotify.com/track/…"),
  }),
  directive: z
    .strictObject({
      type: z.literal("play_media").describe("Always play_media."),
      url: httpUrl.describe(
        "What the browser plays or opens: the entry's own link, else a platform search for its title.",
      ),
      title: z.string().nullable().describe("The catalog title; null when the url matches no catalog entry."),
      artwork: httpUrl.nullable().describe("Artwork image URL from the catalog, or null."),
      song_id: z.uuid().nullable().describe("The catalog entry played, or null when only a url was given."),
    })
    .describe("Play a track: the browser opens its player (or the platform's page) for url."),
  scope: "items:read",
});
