import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { useEnv } from "../limits/test-setup";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { invoke } from "../surfaces/agent";
import { type FixtureAnswer, type FixtureServer, routeKey, startFixtureServer } from "./support/fixture-server";
import { odesliAnswer, type Song, spotifyId } from "./support/odesli-answer";

/**
 * Issue 35's "done when", as a member tries it, with a fixture Odesli standing in for the network: a
 * Spotify link of a song the seed does not know gives title, artist, artwork and links on three or
 * more platforms; the Apple Music and YouTube links of that song return the same entry (without asking
 * again); the phrase "artist title" finds it with confidence ≥ 0.8; play_song of it carries an embed.
 * The outage half (every provider 503 or unreachable) is provider-outage.test.ts.
 */
const routes: Record<string, FixtureAnswer> = {};
let server: FixtureServer;
let ada: TestMember;

/** A word of letters only, so the phrase match sees a real title (the catalog outlives a run on the server pass). */
const word = () => [...randomBytes(8)].map((byte) => "abcdefghijklmnopqrstuvwxyz"[byte % 26]).join("");

/** Odesli's documented answer (odesli-answer.ts) with the song's YouTube video beside the other platforms. */
function withYoutube(song: Song, video: string): unknown {
  const answer = odesliAnswer(song) as {
    linksByPlatform: Record<string, unknown>;
    entitiesByUniqueId: Record<string, Record<string, unknown>>;
  };
  const key = `YOUTUBE_VIDEO::${video}`;
  answer.linksByPlatform.youtube = { url: `https://www.youtube.com/watch?v=${video}`, entityUniqueId: key };
  const spotify = Object.values(answer.entitiesByUniqueId)[0];
  answer.entitiesByUniqueId[key] = { ...spotify, id: video, apiProvider: "youtube", platforms: ["youtube"] };
  return answer;
}

describe("a song the seed does not know, from its Spotify link to playing it", () => {
  const setEnv = useEnv();

  beforeAll(async () => {
    server = await startFixtureServer(routes);
    ada = await makeMember();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    clearProviderCache();
    resetProviderBreaker();
    setEnv({
      RESOLVER_PROVIDERS: "odesli",
      RESOLVER_ODESLI_URL: `${server.url}/odesli`,
      RESOLVER_MIN_INTERVAL_MS: "0",
      RESOLVER_RETRIES: "0",
    });
  });

  it("is one entry with artwork and three platforms, found by its other links and by name, and plays", async () => {
    const song: Song = {
      spotify: spotifyId(),
      apple: String(randomInt(9_200_000_000, 9_299_999_999)),
      deezer: String(randomInt(3_000_000_000, 3_099_999_999)),
      title: `Lanterns ${word()}`,
    };
    const video = randomBytes(8).toString("base64url").slice(0, 11);
    const spotifyUrl = `https://open.spotify.com/track/${song.spotify}`;
    const key = routeKey(
      "GET",
      `/odesli/links?${new URLSearchParams({ url: spotifyUrl, userCountry: "US", songIfSingle: "true" })}`,
    );
    routes[key] = { body: JSON.stringify(withYoutube(song, video)) };

    const first = await api("POST", "/resolve", { token: ada.token, body: { input: spotifyUrl } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      title: song.title,
      partial: false,
      creators: [{ name: "The Fixtures" }],
      artwork: { url: expect.stringMatching(/^https:\/\//) },
    });
    const platforms = Object.keys(first.body.platform_links);
    expect(platforms.length).toBeGreaterThanOrEqual(3);
    expect(platforms).toEqual(expect.arrayContaining(["spotify", "apple_music", "youtube"]));
    const asked = server.requests.length;

    // The same work by its other platforms' links: the same entry, answered from the catalog.
    for (const link of [`https://music.apple.com/gb/song/${song.apple}`, `https://youtu.be/${video}`]) {
      const again = await api("POST", "/resolve", { token: ada.token, body: { input: link } });
      expect(again.status, link).toBe(200);
      expect(again.body, link).toMatchObject({ song_id: first.body.song_id, partial: false });
    }
    expect(server.requests.length).toBe(asked);

    const byName = await api("POST", "/resolve", { token: ada.token, body: { input: `The Fixtures ${song.title}` } });
    expect(byName.status).toBe(200);
    expect(byName.body.song_id).toBe(first.body.song_id);
    expect(byName.body.resolution).toMatchObject({ input_type: "phrase", matched_by: "catalog_search" });
    expect(byName.body.resolution.confidence).toBeGreaterThanOrEqual(0.8);

    const played = await invoke(ada.token, { tool: "play_song", input: { song_id: first.body.song_id } });
    expect(played.status).toBe(200);
    const { directive } = played.body;
    expect(directive).toMatchObject({ playable: true, title: song.title, song_id: first.body.song_id });
    expect(directive.embeds.length).toBeGreaterThan(0);
    expect(directive.embeds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ platform: "spotify", embed_url: expect.stringContaining(song.spotify) }),
        expect.objectContaining({ platform: "youtube", embed_url: expect.stringContaining(video) }),
      ]),
    );
  });
});
