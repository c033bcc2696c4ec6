import { randomBytes } from "node:crypto";

/** A song as the fixture Odesli knows it: a Spotify id, optionally Apple Music and Deezer ids, a title. */
export interface Song {
  spotify: string;
  apple?: string;
  deezer?: string;
  title: string;
}

/** A fresh Spotify-shaped id (22 base-62 characters) that names itself a fixture. */
export const spotifyId = () =>
  `Fixture${[...randomBytes(15)].map((byte) => "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[byte % 62]).join("")}`;

/**
 * An answer of Odesli's GET /v1-alpha.1/links in its documented shape (entityUniqueId,
 * linksByPlatform, entitiesByUniqueId; see test/fixtures/upstream/odesli/links-fixture-track.json),
 * naming the song on Spotify and, when it has ids there, Apple Music and Deezer.
 */
export function odesliAnswer(song: Song): unknown {
  const spotifyKey = `SPOTIFY_SONG::${song.spotify}`;
  const appleKey = `ITUNES_SONG::${song.apple}`;
  const deezerKey = `DEEZER_SONG::${song.deezer}`;
  const entity = (id: string, apiProvider: string) => ({
    id,
    type: "song",
    title: song.title,
    artistName: "The Fixtures",
    thumbnailUrl: `https://i.scdn.co/image/${id}`,
    thumbnailWidth: 640,
    thumbnailHeight: 640,
    apiProvider,
    platforms: [apiProvider],
  });
  return {
    entityUniqueId: spotifyKey,
    userCountry: "US",
    pageUrl: `https://song.link/s/${song.spotify}`,
    linksByPlatform: {
      spotify: { url: `https://open.spotify.com/track/${song.spotify}`, entityUniqueId: spotifyKey },
      ...(song.apple
        ? { appleMusic: { url: `https://music.apple.com/us/song/${song.apple}`, entityUniqueId: appleKey } }
        : {}),
      ...(song.deezer
        ? { deezer: { url: `https://www.deezer.com/track/${song.deezer}`, entityUniqueId: deezerKey } }
        : {}),
    },
    entitiesByUniqueId: {
      [spotifyKey]: entity(song.spotify, "spotify"),
      ...(song.apple ? { [appleKey]: entity(song.apple, "itunes") } : {}),
      ...(song.deezer ? { [deezerKey]: entity(song.deezer, "deezer") } : {}),
    },
  };
}
