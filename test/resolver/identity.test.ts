import { randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { normaliseIds } from "@/lib/catalog/identity";
import { resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { seedRows } from "@/lib/catalog/seed-migration";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { useEnv } from "../limits/test-setup";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { sqlAsService } from "../support/store";
import { type FixtureAnswer, type FixtureServer, routeKey, startFixtureServer } from "./support/fixture-server";
import { odesliAnswer, type Song, spotifyId } from "./support/odesli-answer";

/**
 * One entry per work (issue 35, item 5): catalog_external_ids is the identity. Every request goes
 * through the real route; providers are a fixture server on 127.0.0.1 answering in Odesli's
 * documented shape, with fresh ids each run (the catalog outlives a run on the server database).
 */
const routes: Record<string, FixtureAnswer | FixtureAnswer[]> = {};
let server: FixtureServer;
let ada: TestMember;

const resolve = (input: string, member = ada) => api("POST", "/resolve", { token: member.token, body: { input } });
const entry = (id: string) => api("GET", `/catalog/${id}`, { token: ada.token });
const spotifyUrl = (song: Song) => `https://open.spotify.com/track/${song.spotify}`;
const appleUrl = (song: Song) => `https://music.apple.com/us/song/${song.apple}`;
const odesliRoute = (url: string) =>
  routeKey("GET", `/odesli/links?${new URLSearchParams({ url, userCountry: "US", songIfSingle: "true" })}`);
const newSong = (): Song => ({
  spotify: spotifyId(),
  apple: String(randomInt(9_100_000_000, 9_199_999_999)),
  title: `Fixture Identity ${randomInt(1e9)}`,
});
/** Odesli knows the song under both links (it answers the same document for each). */
const odesliKnows = (song: Song, answer: Partial<FixtureAnswer> = {}) => {
  const body = JSON.stringify(odesliAnswer(song));
  routes[odesliRoute(spotifyUrl(song))] = { body, ...answer };
  routes[odesliRoute(appleUrl(song))] = { body, ...answer };
};

describe("one entry per work", () => {
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
      RESOLVER_PROVIDERS: "off",
      RESOLVER_ODESLI_URL: `${server.url}/odesli`,
      RESOLVER_MIN_INTERVAL_MS: "0",
      RESOLVER_RETRIES: "0",
    });
  });

  it("writes each scheme's ids in one form: ISBN-10 as ISBN-13, ISRC without hyphens, MusicBrainz lower case", () => {
    expect(
      normaliseIds([
        { namespace: "isbn10", value: "0-14-032872-6" },
        { namespace: "isbn13", value: "978-0-14-032872-1" },
        { namespace: "isrc", value: "gb-um7-10-29604" },
        { namespace: "mb:recording", value: "B1A9C0E9-D987-4042-AE91-78D6A3267D69" },
        { namespace: "wikidata", value: "q42" },
        { namespace: "imdb", value: "TT0133093" },
        { namespace: "olid:work", value: "ol45804w" },
        { namespace: "apple:song", value: "not-a-number" },
        { namespace: "isbn13", value: "9780140328722" },
      ]),
    ).toEqual([
      { namespace: "isbn13", value: "9780140328721" },
      { namespace: "isrc", value: "GBUM71029604" },
      { namespace: "mb:recording", value: "b1a9c0e9-d987-4042-ae91-78d6a3267d69" },
      { namespace: "wikidata", value: "Q42" },
      { namespace: "imdb", value: "tt0133093" },
      { namespace: "olid:work", value: "OL45804W" },
    ]);
  });

  it("keeps every id of the offline seed as it is: the seed's ids are already in their stored form", () => {
    const ids = seedRows().flatMap((row) => row.external_ids);
    expect(ids.length).toBeGreaterThan(400);
    expect(normaliseIds(ids)).toEqual(ids);
  });

  it("answers the seeded entry for a link of any platform whose id the seed has, offline", async () => {
    const [queen] = await sqlAsService<{ id: string }>(
      "select entry_id as id from public.catalog_external_ids where namespace = 'spotify:track' and value = '6fPm2XMi51l5GCEp19HscL'",
    );
    const [kitchen] = await sqlAsService<{ id: string }>(
      "select entry_id as id from public.catalog_external_ids where namespace = 'tidal:track' and value = '67784545'",
    );
    const [astley] = await sqlAsService<{ id: string }>(
      "select entry_id as id from public.catalog_external_ids where namespace = 'youtube:video' and value = 'dQw4w9WgXcQ'",
    );
    const [fox] = await sqlAsService<{ id: string }>(
      "select entry_id as id from public.catalog_external_ids where namespace = 'isbn13' and value = '9780140328721'",
    );
    const cases: [string, string | undefined][] = [
      ["https://open.spotify.com/track/6fPm2XMi51l5GCEp19HscL?si=abc", queen?.id],
      ["https://music.apple.com/gb/album/bohemian-rhapsody/1440650428?i=1440650711", queen?.id],
      ["https://www.deezer.com/fr/track/138127073", kitchen?.id],
      ["https://tidal.com/browse/track/67784545", kitchen?.id],
      ["https://youtu.be/dQw4w9WgXcQ", astley?.id],
      ["https://music.youtube.com/watch?v=dQw4w9WgXcQ", astley?.id],
      ["0140328726", fox?.id],
      ["ISBN 978-0-14-032872-1", fox?.id],
    ];
    for (const [input, expected] of cases) {
      expect(expected, input).toBeTruthy();
      const response = await resolve(input);
      expect(response.status, input).toBe(200);
      expect(response.body, input).toMatchObject({ song_id: expected, partial: false, resolution: { offline: true } });
    }
  });

  it("makes one entry when two links of the same new work are resolved at the same time", async () => {
    setEnv({ RESOLVER_PROVIDERS: "odesli" });
    const song = newSong();
    // Both answers arrive together, so both writes race for the same ids.
    odesliKnows(song, { delayMs: 150 });
    const members = await Promise.all([makeMember(), makeMember(), makeMember(), makeMember()]);
    const answers = await Promise.all(
      members.map((member, i) => resolve(i % 2 ? appleUrl(song) : spotifyUrl(song), member)),
    );
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(new Set(answers.map((answer) => answer.body.song_id)).size).toBe(1);
    expect(answers[0]?.body).toMatchObject({ title: song.title, partial: false });
    const rows = await sqlAsService<{ n: number }>(
      `select count(distinct entry_id)::int as n from public.catalog_external_ids
        where (namespace, value) in (('spotify:track', $1), ('apple:song', $2))`,
      [song.spotify, song.apple],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("merges two entries a provider reveals to be one work: items repointed, ids moved, the merged id answers the survivor", async () => {
    const song = newSong();
    // Offline, each link makes its own partial entry: nothing says they are one song yet.
    const bySpotify = await resolve(spotifyUrl(song));
    const byApple = await resolve(appleUrl(song));
    expect(bySpotify.body).toMatchObject({ partial: true, title: null });
    expect(byApple.body.song_id).not.toBe(bySpotify.body.song_id);
    const [older, newer] = [bySpotify.body.song_id as string, byApple.body.song_id as string];

    const collection = (await api("POST", "/collections", { token: ada.token, body: { name: "merge", type: "music" } }))
      .body;
    const items = await Promise.all(
      [older, newer].map(
        async (song_id) =>
          (await api("POST", "/items", { token: ada.token, body: { collection_id: collection.id, song_id } })).body,
      ),
    );

    const hook = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: "https://example.com/hooks/merge", events: ["item.updated"] },
    });
    expect(hook.status).toBe(201);

    // Odesli names both ids: the next resolve of either link merges the two entries.
    setEnv({ RESOLVER_PROVIDERS: "odesli" });
    odesliKnows(song);
    const merged = await resolve(appleUrl(song));
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ song_id: older, title: song.title, partial: false });
    expect(merged.body.external_ids).toMatchObject({ "spotify:track": song.spotify, "apple:song": song.apple });

    for (const item of items) {
      const read = await api("GET", `/items/${item.id}`, { token: ada.token });
      expect(read.body.song_id).toBe(older);
    }
    // The owner learns of it: the repointed item (only the one that pointed at the merged entry) is an item.updated event.
    const events = await sqlAsService<{ event_type: string }>(
      "select event_type from public.webhook_deliveries where endpoint_id = $1",
      [hook.body.id],
    );
    expect(events).toEqual([{ event_type: "item.updated" }]);
    const gone = await sqlAsService("select 1 from public.catalog_entries where id = $1", [newer]);
    expect(gone).toEqual([]);
    const survivor = await entry(newer);
    expect(survivor.status).toBe(200);
    expect(survivor.body).toMatchObject({ song_id: older, merged_from: newer, partial: false, title: song.title });
    expect((await entry(older)).body).toMatchObject({ song_id: older, merged_from: null });
    // The offline link answers the survivor too.
    setEnv({ RESOLVER_PROVIDERS: "off" });
    expect((await resolve(appleUrl(song))).body.song_id).toBe(older);
  });

  it("merges under concurrent resolves of every link of the work: one entry left, every answer leads to it", async () => {
    const song = { ...newSong(), deezer: String(randomInt(9_100_000_000, 9_199_999_999)) };
    const deezerUrl = `https://www.deezer.com/track/${song.deezer}`;
    const links = [spotifyUrl(song), appleUrl(song), deezerUrl];
    // Offline: three partial entries, one per link, each held by an item.
    const partials: string[] = [];
    for (const link of links) partials.push((await resolve(link)).body.song_id);
    expect(new Set(partials).size).toBe(3);
    const collection = (await api("POST", "/collections", { token: ada.token, body: { name: "race", type: "music" } }))
      .body;
    const items = [];
    for (const song_id of partials)
      items.push(
        (await api("POST", "/items", { token: ada.token, body: { collection_id: collection.id, song_id } })).body,
      );

    // Odesli knows the Spotify and Apple links (naming all three ids), not the Deezer one.
    setEnv({ RESOLVER_PROVIDERS: "odesli" });
    odesliKnows(song, { delayMs: 100 });
    const members = await Promise.all(Array.from({ length: 9 }, () => makeMember()));
    const answers = await Promise.all(members.map((member, i) => resolve(links[i % 3] as string, member)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const owners = await sqlAsService<{ entry_id: string }>(
      `select distinct entry_id from public.catalog_external_ids
        where (namespace, value) in (('spotify:track', $1), ('apple:song', $2), ('deezer:track', $3))`,
      [song.spotify, song.apple, song.deezer],
    );
    expect(owners).toEqual([{ entry_id: partials[0] }]);
    for (const answer of answers) expect((await entry(answer.body.song_id)).body.song_id).toBe(partials[0]);
    for (const item of items)
      expect((await api("GET", `/items/${item.id}`, { token: ada.token })).body.song_id).toBe(partials[0]);
    expect((await entry(partials[0] as string)).body).toMatchObject({ title: song.title, partial: false });
  });

  it("keeps a complete entry over an older partial one when merging", async () => {
    const song = newSong();
    const partial = await resolve(appleUrl(song));
    setEnv({ RESOLVER_PROVIDERS: "odesli" });
    routes[odesliRoute(spotifyUrl(song))] = { body: JSON.stringify(odesliAnswer({ ...song, apple: undefined })) };
    const complete = await resolve(spotifyUrl(song));
    expect(complete.body).toMatchObject({ partial: false, title: song.title });
    expect(complete.body.song_id).not.toBe(partial.body.song_id);
    // Now Odesli answers with both ids for the Apple link.
    clearProviderCache();
    routes[odesliRoute(appleUrl(song))] = { body: JSON.stringify(odesliAnswer(song)) };
    const merged = await resolve(appleUrl(song));
    expect(merged.body).toMatchObject({ song_id: complete.body.song_id, partial: false });
    expect((await entry(partial.body.song_id)).body).toMatchObject({
      song_id: complete.body.song_id,
      merged_from: partial.body.song_id,
    });
  });

  it("answers 404 for an id that never was an entry", async () => {
    const missing = await entry("00000000-0000-4000-8000-00000000abcd");
    expect(missing.status).toBe(404);
  });
});
