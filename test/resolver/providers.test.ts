import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { forgetResolved } from "./support/reset";
import { type FixtureAnswer, type FixtureServer, routeKey, startFixtureServer } from "./support/fixture-server";

const routes: Record<string, FixtureAnswer | FixtureAnswer[]> = {};
let server: FixtureServer;
const saved: Record<string, string | undefined> = {};

const key = (path: string, params: Record<string, string> = {}) =>
  routeKey("GET", `${path}?${new URLSearchParams(params)}`);
const itunesLookup = (id: string) => key("/itunes/lookup", { id, country: "US" });
const song = (id: string, title: string) =>
  JSON.stringify({
    resultCount: 1,
    results: [
      {
        wrapperType: "track",
        kind: "song",
        trackId: Number(id),
        trackName: title,
        artistName: "The Fixtures",
        releaseDate: "2010-01-01T00:00:00Z",
      },
    ],
  });

function setEnv(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

const resolve = (member: TestMember, input: string) =>
  api("POST", "/resolve", { token: member.token, body: { input } });
const seen = (path: string) => server.requests.filter((request) => request.includes(path)).length;

beforeAll(async () => {
  server = await startFixtureServer(routes);
  await forgetResolved();
  setEnv({
    RESOLVER_PROVIDERS: "all",
    RESOLVER_ODESLI_URL: `${server.url}/odesli`,
    RESOLVER_ITUNES_URL: `${server.url}/itunes`,
    RESOLVER_MUSICBRAINZ_URL: `${server.url}/musicbrainz`,
    RESOLVER_COVERARTARCHIVE_URL: `${server.url}/coverartarchive`,
    RESOLVER_OPENLIBRARY_URL: `${server.url}/openlibrary`,
    RESOLVER_WIKIPEDIA_URL: `${server.url}/wikipedia/{lang}`,
    RESOLVER_NOMINATIM_URL: `${server.url}/nominatim`,
    RESOLVER_MIN_INTERVAL_MS: "0",
    RESOLVER_TIMEOUT_MS: "1000",
    RESOLVER_RETRIES: "1",
    RESOLVER_USER_AGENT: "pds-tests/1 (+https://example.test/contact)",
    RESOLVER_ALLOW_PRIVATE_HOSTS: undefined,
  });
});

afterAll(async () => {
  setEnv(Object.fromEntries(Object.keys(saved).map((name) => [name, saved[name]])));
  await server.close();
});

beforeEach(() => {
  clearProviderCache();
  // Scripted failures of one test must not leave a provider's circuit open for the next.
  resetProviderBreaker();
});

describe("providers (replayed on 127.0.0.1)", () => {
  it("upgrades a partial entry with Odesli: links on every platform, artwork, ids — same song_id", async () => {
    const ada = await makeMember();
    const url = "https://open.spotify.com/track/FixtureTrack0000000001";
    setEnv({ RESOLVER_PROVIDERS: "off" });
    const offline = await resolve(ada, `${url}?si=share`);
    // Offline nothing names the track: no title made up from its id, the platform and link instead.
    expect(offline.body).toMatchObject({
      title: null,
      partial: true,
      platform_links: { spotify: { url } },
      resolution: {
        matched_by: "url_parser",
        offline: true,
        platform: "spotify",
        namespace: "spotify:track",
        value: "FixtureTrack0000000001",
      },
    });
    setEnv({ RESOLVER_PROVIDERS: "all" });
    routes[key("/odesli/links", { url, userCountry: "US", songIfSingle: "true" })] = {
      file: "odesli/links-fixture-track.json",
    };
    const online = await resolve(ada, url);
    expect(online.status).toBe(200);
    expect(online.body).toMatchObject({
      song_id: offline.body.song_id,
      title: "Fixture Song",
      partial: false,
      creators: [{ name: "The Fixtures", role: "artist" }],
      artwork: {
        url: "https://is1-ssl.mzstatic.com/image/thumb/Music/fixture/source/512x512bb.jpg",
        width: 512,
        source: "itunes",
      },
      platform_links: {
        spotify: expect.any(Object),
        apple_music: expect.any(Object),
        youtube_music: expect.any(Object),
        deezer: expect.any(Object),
      },
      external_ids: expect.objectContaining({
        "apple:song": "9000000001",
        "deezer:track": "9000000001",
        "youtube:video": "Fixture0001",
      }),
      resolution: {
        matched_by: "provider:odesli",
        offline: false,
        partial: false,
        providers: ["odesli"],
        warnings: [],
      },
    });
    expect(online.body.platform_links.google).toBeUndefined();
    expect(server.userAgents.at(-1)).toBe("pds-tests/1 (+https://example.test/contact)");
    // Now complete, the entry is answered from the catalog: no second upstream call.
    const before = server.requests.length;
    const again = await resolve(ada, "https://www.deezer.com/track/9000000001");
    expect(again.body).toMatchObject({
      song_id: offline.body.song_id,
      resolution: { matched_by: "catalog", offline: true },
    });
    expect(server.requests.length).toBe(before);
  });

  it("enriches an Apple Music URL from the iTunes lookup (600px artwork, no tracking), even when Odesli refuses", async () => {
    const ada = await makeMember();
    routes[
      key("/odesli/links", {
        url: "https://music.apple.com/us/album/9000000012?i=9000000011",
        userCountry: "US",
        songIfSingle: "true",
      })
    ] = {
      status: 400,
      file: "odesli/could-not-resolve.json",
    };
    routes[itunesLookup("9000000011")] = { file: "itunes/lookup-fixture-song.json" };
    const response = await resolve(
      ada,
      "https://music.apple.com/us/album/fixture-ballad/9000000012?i=9000000011&uo=4&at=1000lHKX",
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      title: "Fixture Ballad",
      subtitle: "Fixture Album",
      release_date: "2001-02-03",
      artwork: { url: "https://is1-ssl.mzstatic.com/image/thumb/Music/fixture/ballad.jpg/600x600bb.jpg", width: 600 },
      creators: [
        { name: "The Fixtures", links: { apple_music: "https://music.apple.com/us/artist/the-fixtures/9000000100" } },
      ],
      platform_links: {
        apple_music: {
          url: "https://music.apple.com/us/album/fixture-ballad/9000000012?i=9000000011",
          source: "itunes",
        },
      },
      attributes: { duration_ms: 201000, track_number: 4 },
      resolution: {
        matched_by: "provider:itunes",
        partial: false,
        warnings: [{ provider: "odesli", code: "http_error" }],
      },
    });
  });

  it("turns a malformed answer into a warning and a partial result, never a 500", async () => {
    const ada = await makeMember();
    routes[itunesLookup("9000000031")] = { body: "<html>temporarily unavailable</html>" };
    const response = await resolve(ada, "https://music.apple.com/us/song/fixture-broken/9000000031");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      title: "Fixture Broken",
      partial: true,
      resolution: {
        matched_by: "url_parser",
        partial: true,
        offline: false,
        warnings: expect.arrayContaining([expect.objectContaining({ provider: "itunes", code: "malformed" })]),
      },
    });
    routes[itunesLookup("9000000033")] = { body: song("9000000033", `Fixture ${"Very ".repeat(200)}Long`) };
    const tooLong = await resolve(ada, "https://music.apple.com/us/song/9000000033");
    expect(tooLong.status).toBe(200);
    expect(tooLong.body.title).toHaveLength(500);
    routes[itunesLookup("9000000032")] = { body: JSON.stringify({ resultCount: "many", results: null }) };
    const wrongShape = await resolve(ada, "https://music.apple.com/us/song/9000000032");
    expect(wrongShape.body.resolution.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider: "itunes", code: "malformed" })]),
    );
  });

  it("gives up at once on a 429 with a long Retry-After, and honours a short one", async () => {
    const ada = await makeMember();
    routes[itunesLookup("9000000041")] = { status: 429, headers: { "retry-after": "120" } };
    const limited = await resolve(ada, "https://music.apple.com/us/song/9000000041");
    expect(limited.status).toBe(200);
    expect(limited.body.resolution.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider: "itunes", code: "rate_limited" })]),
    );
    expect(limited.body.partial).toBe(true);
    expect(seen("id=9000000041")).toBe(1);

    routes[itunesLookup("9000000051")] = [
      { status: 429, headers: { "retry-after": "0" } },
      { body: song("9000000051", "Fixture Patience") },
    ];
    const retried = await resolve(ada, "https://music.apple.com/us/song/9000000051");
    expect(retried.body).toMatchObject({
      title: "Fixture Patience",
      partial: false,
      resolution: { matched_by: "provider:itunes" },
    });
    expect(seen("id=9000000051")).toBe(2);
  });

  it("retries a 503 with backoff and times out a silent provider", async () => {
    const ada = await makeMember();
    routes[itunesLookup("9000000071")] = [{ status: 503 }, { body: song("9000000071", "Fixture Second Try") }];
    const recovered = await resolve(ada, "https://music.apple.com/us/song/9000000071");
    expect(recovered.body).toMatchObject({
      title: "Fixture Second Try",
      resolution: { matched_by: "provider:itunes", warnings: [] },
    });
    expect(seen("id=9000000071")).toBe(2);

    routes[itunesLookup("9000000061")] = { delayMs: 2500, body: song("9000000061", "Too Late") };
    const started = Date.now();
    const slow = await resolve(ada, "https://music.apple.com/us/song/fixture-slow/9000000061");
    expect(slow.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2500 * 2);
    expect(slow.body).toMatchObject({ title: "Fixture Slow", partial: true });
    expect(slow.body.resolution.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider: "itunes", code: "timeout" })]),
    );
    expect(seen("id=9000000061")).toBe(2);
  });

  it("searches iTunes for a phrase the catalog does not know, then answers it from the catalog", async () => {
    const ada = await makeMember();
    const searchKey = key("/itunes/search", {
      term: "Fixture Quokka Lullaby",
      media: "music",
      entity: "song",
      limit: "5",
      country: "US",
    });
    routes[searchKey] = { file: "itunes/search-fixture-phrase.json" };
    const first = await resolve(ada, "Fixture Quokka Lullaby");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      title: "Fixture Quokka Lullaby",
      creators: [{ name: "Quokka Band" }],
      resolution: { input_type: "phrase", matched_by: "provider:itunes" },
    });
    // Both iTunes results were stored; the exact title is a clear answer, so no alternatives.
    expect(first.body.alternatives).toEqual([]);
    const stored = await api("GET", "/search?q=quokka%20lullaby", { token: ada.token });
    expect(stored.body.data.map((hit: { title: string }) => hit.title)).toEqual([
      "Fixture Quokka Lullaby",
      "Fixture Quokka Lullaby (Live)",
    ]);
    const second = await resolve(ada, "fixture quokka lullaby");
    expect(second.body).toMatchObject({
      song_id: first.body.song_id,
      resolution: { matched_by: "catalog_search", offline: true },
    });
    expect(server.requests.filter((request) => request === searchKey)).toHaveLength(1);
  });

  it("falls through to MusicBrainz with Cover Art Archive artwork", async () => {
    const ada = await makeMember();
    routes[
      key("/itunes/search", {
        term: "Fixture Recording Wombat",
        media: "music",
        entity: "song",
        limit: "5",
        country: "US",
      })
    ] = { file: "itunes/search-empty.json" };
    routes[key("/musicbrainz/recording", { query: "Fixture Recording Wombat", fmt: "json", limit: "5" })] = {
      file: "musicbrainz/recording-search.json",
    };
    routes[key("/coverartarchive/release/00000000-0000-4000-8000-00000000b001")] = {
      file: "coverartarchive/release.json",
    };
    const response = await resolve(ada, "Fixture Recording Wombat");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      title: "Fixture Recording",
      subtitle: "Fixture Sessions",
      release_date: "1999-09-09",
      creators: [{ name: "Fixture Quartet" }, { name: "Guest" }],
      artwork: {
        url: "https://coverartarchive.org/release/00000000-0000-4000-8000-00000000b001/1-500.jpg",
        source: "coverartarchive",
      },
      external_ids: expect.objectContaining({
        "mb:recording": "00000000-0000-4000-8000-00000000f001",
        isrc: "XXFIX9900001",
      }),
      resolution: { matched_by: "provider:musicbrainz" },
    });
  });

  it("answers 404 (not a 5xx) when a phrase is unknown offline and every provider fails", async () => {
    const ada = await makeMember();
    const phrase = "Zebra Outage Xylophone";
    routes[key("/itunes/search", { term: phrase, media: "music", entity: "song", limit: "5", country: "US" })] = {
      status: 500,
    };
    routes[key("/musicbrainz/recording", { query: phrase, fmt: "json", limit: "5" })] = { status: 500 };
    const fields = "key,title,author_name,author_key,first_publish_year,cover_i,isbn";
    routes[key("/openlibrary/search.json", { q: phrase, fields, limit: "5" })] = { status: 500 };
    const response = await resolve(ada, phrase);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("not_found");
    expect(response.body.detail).toMatch(/providers could not be asked/);
  });

  it("looks up an ISBN in Open Library: authors, publisher, cover, Goodreads cross-link", async () => {
    const ada = await makeMember();
    routes[key("/openlibrary/api/books", { bibkeys: "ISBN:9780385533225", format: "json", jscmd: "data" })] = {
      file: "openlibrary/books-isbn.json",
    };
    const response = await resolve(ada, "978-0-385-53322-5");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      domain: "books",
      kind: "edition",
      title: "Fixture Book",
      subtitle: "Fixture Press",
      release_date: "2009",
      creators: [{ name: "Fixture Author", role: "author" }],
      artwork: { url: "https://covers.openlibrary.org/b/id/900001-L.jpg" },
      platform_links: { goodreads: { url: "https://www.goodreads.com/book/show/900000001" } },
      attributes: { isbn13: "9780385533225", isbn10: "0385533225", page_count: 321 },
      resolution: { input_type: "identifier", matched_by: "provider:openlibrary" },
    });
  });

  it("reads a Wikipedia summary; coordinates make it a place", async () => {
    const ada = await makeMember();
    routes[key("/wikipedia/en/page/summary/Fixture_Geyser")] = { file: "wikipedia/summary-fixture-geyser.json" };
    const response = await resolve(ada, "https://en.m.wikipedia.org/wiki/Fixture_Geyser#Eruptions");
    expect(response.body).toMatchObject({
      domain: "places",
      title: "Fixture Geyser",
      subtitle: "Cone geyser used in tests",
      artwork: { width: 1200, source: "wikipedia" },
      attributes: { lat: 44.4605, lng: -110.8282 },
      external_ids: expect.objectContaining({ wikidata: "Q900000001", "wikipedia:en": "Fixture Geyser" }),
    });
  });

  it("looks up an OpenStreetMap node in Nominatim", async () => {
    const ada = await makeMember();
    routes[key("/nominatim/lookup", { osm_ids: "N9000000001", format: "jsonv2", addressdetails: "1" })] = {
      file: "nominatim/lookup-node.json",
    };
    const response = await resolve(ada, "https://www.openstreetmap.org/node/9000000001");
    expect(response.body).toMatchObject({
      domain: "places",
      title: "Fixture Gate",
      subtitle: "Berlin, Deutschland",
      attributes: { lat: 52.5162746, lng: 13.3777041, country_code: "DE", category: "tourism/attraction" },
      resolution: { matched_by: "provider:nominatim" },
    });
  });
});

describe("article pages (OpenGraph, oEmbed) behind the SSRF guard", () => {
  it("reads OpenGraph tags and the oEmbed document of an allow-listed test host", async () => {
    const ada = await makeMember();
    setEnv({ RESOLVER_ALLOW_PRIVATE_HOSTS: "127.0.0.1" });
    routes[key("/articles/fixture-story")] = { file: "html/article.html" };
    routes[key("/oembed", { url: "/articles/fixture-story" })] = { file: "html/oembed.json" };
    const response = await resolve(ada, `${server.url}/articles/fixture-story?utm_source=newsletter`);
    setEnv({ RESOLVER_ALLOW_PRIVATE_HOSTS: undefined });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      domain: "articles",
      title: "The Fixture Story & Its Consequences",
      subtitle: "Fixture Times",
      release_date: "2024-05-06",
      creators: [
        {
          name: "Fixture Reporter",
          role: "author",
          links: { website: "https://fixture-times.example/authors/reporter" },
        },
      ],
      artwork: { url: `${server.url}/images/fixture-story.jpg`, width: 1200, height: 630, source: "opengraph" },
      canonical_url: `${server.url}/articles/fixture-story`,
      resolution: { matched_by: "provider:html", partial: false },
    });
  });

  it("refuses loopback and private addresses: a partial entry, a refusal warning, no request made", async () => {
    const ada = await makeMember();
    const before = seen("/articles/ssrf-probe");
    const response = await resolve(ada, `${server.url}/articles/ssrf-probe`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ partial: true, title: "Ssrf Probe" });
    expect(response.body.resolution.warnings).toEqual([expect.objectContaining({ provider: "html", code: "refused" })]);
    expect(seen("/articles/ssrf-probe")).toBe(before);
  });

  it("checks every redirect hop: an allowed host redirecting to a private address is refused", async () => {
    const ada = await makeMember();
    setEnv({ RESOLVER_ALLOW_PRIVATE_HOSTS: "localhost" });
    routes[key("/articles/redirect-me")] = {
      status: 302,
      headers: { location: `${server.url}/articles/private-target` },
    };
    const response = await resolve(ada, `${server.url.replace("127.0.0.1", "localhost")}/articles/redirect-me`);
    setEnv({ RESOLVER_ALLOW_PRIVATE_HOSTS: undefined });
    expect(response.status).toBe(200);
    expect(response.body.resolution.warnings).toEqual([expect.objectContaining({ provider: "html", code: "refused" })]);
    expect(seen("/articles/redirect-me")).toBe(1);
    expect(seen("/articles/private-target")).toBe(0);
  });
});
