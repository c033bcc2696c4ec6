import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetProviderState } from "./eval/harness";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { overrideEnv } from "../limits/test-setup";
import { type FixtureServer, routeKey, startFixtureServer } from "./support/fixture-server";

/**
 * A song the catalog holds complete but thin (the offline seed's "Yesterday": a Spotify and an
 * Apple id, no artwork, two platform links) is looked up once by its best link when a member
 * resolves it, so the answer shows artwork and the song on every platform; later resolves answer
 * from the catalog. The Odesli answer's YouTube entity is synthetic ("Fixture…", see
 * test/fixtures/upstream/README.md); the Spotify and Apple ids are the seed's.
 */
const SPOTIFY = "3BQHpFgAp4l80e1XslIjNI";
const APPLE = "1441164805";
const VIDEO = "FixtureYst1";
const answer = {
  entityUniqueId: `SPOTIFY_SONG::${SPOTIFY}`,
  userCountry: "US",
  pageUrl: `https://song.link/s/${SPOTIFY}`,
  linksByPlatform: {
    spotify: { url: `https://open.spotify.com/track/${SPOTIFY}`, entityUniqueId: `SPOTIFY_SONG::${SPOTIFY}` },
    appleMusic: { url: `https://music.apple.com/us/song/${APPLE}`, entityUniqueId: `ITUNES_SONG::${APPLE}` },
    youtube: { url: `https://www.youtube.com/watch?v=${VIDEO}`, entityUniqueId: `YOUTUBE_VIDEO::${VIDEO}` },
    youtubeMusic: { url: `https://music.youtube.com/watch?v=${VIDEO}`, entityUniqueId: `YOUTUBE_VIDEO::${VIDEO}` },
  },
  entitiesByUniqueId: {
    [`SPOTIFY_SONG::${SPOTIFY}`]: {
      id: SPOTIFY,
      type: "song",
      title: "Yesterday - Remastered 2009",
      artistName: "The Beatles",
      apiProvider: "spotify",
    },
    [`ITUNES_SONG::${APPLE}`]: {
      id: APPLE,
      type: "song",
      title: "Yesterday",
      artistName: "The Beatles",
      apiProvider: "itunes",
    },
    [`YOUTUBE_VIDEO::${VIDEO}`]: {
      id: VIDEO,
      type: "song",
      title: "Yesterday",
      artistName: "The Beatles",
      apiProvider: "youtube",
      thumbnailUrl: `https://i.ytimg.com/vi/${VIDEO}/hqdefault.jpg`,
      thumbnailWidth: 480,
      thumbnailHeight: 360,
    },
  },
};
const odesliKey = routeKey(
  "GET",
  `/odesli/links?${new URLSearchParams({ url: `https://open.spotify.com/track/${SPOTIFY}`, userCountry: "US", songIfSingle: "true" })}`,
);

let server: FixtureServer;
let restoreEnv: () => void = () => {};
const env = (base: string) => ({
  RESOLVER_PROVIDERS: "odesli,itunes,musicbrainz,openlibrary",
  RESOLVER_ODESLI_URL: `${base}/odesli`,
  RESOLVER_ITUNES_URL: `${base}/itunes`,
  RESOLVER_MUSICBRAINZ_URL: `${base}/musicbrainz`,
  RESOLVER_OPENLIBRARY_URL: `${base}/openlibrary`,
  RESOLVER_MIN_INTERVAL_MS: "0",
});

beforeAll(async () => {
  server = await startFixtureServer({ [odesliKey]: { body: JSON.stringify(answer) } });
  restoreEnv = overrideEnv(env(server.url));
  forgetProviderState();
});
afterAll(async () => {
  restoreEnv();
  forgetProviderState();
  await server.close();
});

describe("thin catalog songs are filled in by one lookup", () => {
  it("a phrase that finds the seed's song answers it with artwork and every platform, under the seed's song_id", async () => {
    const ada = await makeMember();
    const response = await api("POST", "/resolve", { token: ada.token, body: { input: "the beatles yesterday" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      title: "Yesterday",
      creators: [{ name: "The Beatles" }],
      artwork: { url: `https://i.ytimg.com/vi/${VIDEO}/hqdefault.jpg`, source: "youtube" },
      external_ids: expect.objectContaining({ "spotify:track": SPOTIFY, "apple:song": APPLE, "youtube:video": VIDEO }),
    });
    expect(response.body.external_ids.seed).toBe("music/track/yesterday-the-beatles");
    expect(Object.keys(response.body.platform_links)).toEqual(
      expect.arrayContaining(["spotify", "apple_music", "youtube", "youtube_music"]),
    );
    expect(server.requests).toContain(odesliKey);
  });

  it("once filled in, the song's other links answer from the catalog without asking again", async () => {
    const ada = await makeMember();
    const before = server.requests.length;
    const response = await api("POST", "/resolve", {
      token: ada.token,
      body: { input: `https://music.apple.com/gb/song/yesterday/${APPLE}` },
    });
    expect(response.body).toMatchObject({
      title: "Yesterday",
      artwork: { source: "youtube" },
      resolution: { offline: true, providers: [] },
    });
    expect(server.requests.length).toBe(before);
  });
});
