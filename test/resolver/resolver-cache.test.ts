import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { foundNothing, getJson } from "@/lib/catalog/providers/http";
import { providerSettings } from "@/lib/catalog/providers/config";
import { UPKEEP_TASKS } from "@/lib/upkeep/tasks";
import { useEnv } from "../limits/test-setup";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { sqlAsService, sqlErrorAsMember } from "../support/store";
import { type FixtureAnswer, type FixtureServer, routeKey, startFixtureServer } from "./support/fixture-server";

/**
 * The resolver cache in the database: clearProviderCache() forgets this process's copies, which is
 * what a restart or a second instance starts from, so whatever is still answered without an
 * upstream request came from the shared table.
 */
const routes: Record<string, FixtureAnswer | FixtureAnswer[]> = {};
let server: FixtureServer;
const run = randomBytes(4).toString("hex");
// Fresh ids every run: the catalog outlives a run on the server database, and never overwrites a title.
const trackNumber = 8_000_000_000 + (Date.now() % 1_000_000_000);
const created: string[] = [];

const key = (path: string, params: Record<string, string> = {}) =>
  routeKey("GET", `${path}?${new URLSearchParams(params)}`);
const seen = (route: string) => server.requests.filter((request) => request === route).length;
const resolve = (member: TestMember, input: string) =>
  api("POST", "/resolve", { token: member.token, body: { input } });
const restart = () => {
  clearProviderCache();
  resetProviderBreaker();
};
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("resolver cache (shared, in the database)", () => {
  const setEnv = useEnv();
  let ada: TestMember;

  beforeAll(async () => {
    server = await startFixtureServer(routes);
    ada = await makeMember();
  });
  afterAll(async () => {
    await sqlAsService("delete from public.catalog_entries where id = any($1::uuid[])", [created]);
    await server.close();
  });
  beforeEach(() => {
    restart();
    setEnv({
      RESOLVER_PROVIDERS: "itunes,odesli",
      RESOLVER_ODESLI_URL: `${server.url}/odesli`,
      RESOLVER_ITUNES_URL: `${server.url}/itunes`,
      RESOLVER_MIN_INTERVAL_MS: "0",
      RESOLVER_TIMEOUT_MS: "1000",
      RESOLVER_RETRIES: "0",
      RESOLVER_CACHE_TTL_SECONDS: undefined,
      RESOLVER_CACHE_FAILURE_TTL_SECONDS: undefined,
    });
  });

  it("answers a phrase resolved before without asking upstream again, after a restart too", async () => {
    const phrase = `qqzx ${run} wobble`;
    const search = key("/itunes/search", { country: "US", entity: "song", limit: "5", media: "music", term: phrase });
    // iTunes corrects the phrase to a title the catalog's trigram match cannot tie back to it,
    // so the catalog alone never answers this phrase: only the cache spares the upstream call.
    routes[search] = {
      body: JSON.stringify({
        resultCount: 1,
        results: [
          {
            wrapperType: "track",
            kind: "song",
            trackId: trackNumber,
            trackName: `Entirely Other Title ${run}`,
            artistName: "The Fixtures",
          },
        ],
      }),
    };
    const first = await resolve(ada, `song: ${phrase}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.resolution).toMatchObject({ matched_by: "provider:itunes", offline: false });
    expect(seen(search)).toBe(1);
    created.push(first.body.song_id);

    restart();
    const again = await resolve(ada, `song: ${phrase}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ song_id: first.body.song_id, title: `Entirely Other Title ${run}` });
    expect(again.body.resolution).toMatchObject({ matched_by: "provider:itunes", providers: ["itunes"], warnings: [] });
    expect(seen(search)).toBe(1);
    const rows = await sqlAsService<{ failed: boolean; days: number }>(
      "select failed, round(extract(epoch from expires_at - created_at) / 86400)::int as days from app_private.resolver_cache where key like $1",
      [`itunes ${server.url}/itunes/search?%${run}%`],
    );
    expect(rows).toEqual([{ failed: false, days: 7 }]);
  });

  it("keeps a failed look-up only briefly: a link no provider knows is asked again after the failure TTL", async () => {
    setEnv({ RESOLVER_PROVIDERS: "odesli", RESOLVER_CACHE_FAILURE_TTL_SECONDS: "1" });
    // No "Fixture" in the id: forgetResolved (resolve-api, providers) deletes entries whose ids hold
    // it, and on the server pass those files run beside this one: during the pause below, CI once
    // saw the partial entry deleted and the later resolve make a new one.
    const track = `CacheFailTTL${String(Date.now()).slice(-10)}`; // 22 characters, as a Spotify id
    const url = `https://open.spotify.com/track/${track}`;
    const lookup = key("/odesli/links", { url, userCountry: "US", songIfSingle: "true" });
    const unique = `SPOTIFY_SONG::${track}`;
    const found = {
      entityUniqueId: unique,
      linksByPlatform: { spotify: { url, entityUniqueId: unique } },
      entitiesByUniqueId: {
        [unique]: {
          id: track,
          type: "song",
          title: `Cached Song ${run}`,
          artistName: "The Fixtures",
          apiProvider: "spotify",
        },
      },
    };
    routes[lookup] = [{ status: 404, body: '{"statusCode":404}' }, { body: JSON.stringify(found) }];

    const first = await resolve(ada, url);
    expect(first.body).toMatchObject({ partial: true, resolution: { matched_by: "url_parser" } });
    expect(seen(lookup)).toBe(1);
    created.push(first.body.song_id);
    // Still partial, so the next resolve would ask again: the cached "not found" answers instead.
    restart();
    expect((await resolve(ada, url)).body).toMatchObject({ song_id: first.body.song_id, partial: true });
    expect(seen(lookup)).toBe(1);

    await pause(1200);
    restart();
    const later = await resolve(ada, url);
    expect(seen(lookup)).toBe(2);
    expect(later.body).toMatchObject({ song_id: first.body.song_id, title: `Cached Song ${run}`, partial: false });
    expect(later.body.resolution).toMatchObject({ matched_by: "provider:odesli" });
  });

  it("caches a refused request (4xx) as a failure and replays it, but never an outage (5xx)", async () => {
    const settings = () => ({ ...providerSettings("itunes"), retries: 0 });
    const refused = `/itunes/lookup?id=403${run}`;
    const down = `/itunes/lookup?id=500${run}`;
    routes[`GET ${refused}`] = { status: 403 };
    routes[`GET ${down}`] = [{ status: 500 }, { body: '{"resultCount":0,"results":[]}' }];

    await expect(getJson(settings(), `${server.url}${refused}`)).rejects.toMatchObject({
      code: "http_error",
      clientError: true,
    });
    restart();
    await expect(getJson(settings(), `${server.url}${refused}`)).rejects.toMatchObject({
      provider: "itunes",
      code: "http_error",
      message: "itunes refused the request with HTTP 403.",
    });
    expect(seen(`GET ${refused}`)).toBe(1);

    await expect(getJson(settings(), `${server.url}${down}`, foundNothing("results"))).rejects.toMatchObject({
      code: "http_error",
      clientError: false,
    });
    restart();
    expect(await getJson(settings(), `${server.url}${down}`, foundNothing("results"))).toEqual({
      resultCount: 0,
      results: [],
    });
    expect(seen(`GET ${down}`)).toBe(2);
    // Found nothing (as iTunes says it): a failed look-up, kept for the short TTL.
    const [row] = await sqlAsService<{ failed: boolean; minutes: number }>(
      "select failed, round(extract(epoch from expires_at - created_at) / 60)::int as minutes from app_private.resolver_cache where key = $1",
      [`itunes ${server.url}${down}`],
    );
    expect(row).toEqual({ failed: true, minutes: 10 });
  });

  it("is not written when its TTL is 0", async () => {
    setEnv({ RESOLVER_CACHE_TTL_SECONDS: "0" });
    const path = `/itunes/lookup?id=200${run}`;
    routes[`GET ${path}`] = { body: '{"resultCount":1,"results":[]}' };
    await getJson(providerSettings("itunes"), `${server.url}${path}`);
    await getJson(providerSettings("itunes"), `${server.url}${path}`);
    expect(seen(`GET ${path}`)).toBe(2);
    expect(
      await sqlAsService("select 1 from app_private.resolver_cache where key = $1", [`itunes ${server.url}${path}`]),
    ).toEqual([]);
  });

  it("purges expired rows in the scheduled upkeep, and keeps live ones", async () => {
    const task = UPKEEP_TASKS.find((t) => t.name === "expired_resolver_cache");
    expect(task).toBeDefined();
    await sqlAsService(
      `insert into app_private.resolver_cache (key, value, failed, expires_at) values
         ($1, '{"value":null}', true, now() - interval '1 second'),
         ($2, '{"value":{"n":1}}', false, now() + interval '1 day')`,
      [`test old ${run}`, `test live ${run}`],
    );
    const { asService } = await import("@/lib/db");
    expect(await asService((tx) => task?.run(tx) ?? Promise.resolve(0))).toBeGreaterThanOrEqual(1);
    const left = await sqlAsService<{ key: string }>(
      "select key from app_private.resolver_cache where key like $1 order by key",
      [`test % ${run}`],
    );
    expect(left).toEqual([{ key: `test live ${run}` }]);
  });

  it("is closed to members: no read, no write", async () => {
    for (const sql of [
      "select * from app_private.resolver_cache",
      "insert into app_private.resolver_cache (key, value, expires_at) values ('x', 'null', now())",
      "delete from app_private.resolver_cache",
    ]) {
      expect(await sqlErrorAsMember(ada.id, sql), sql).toMatchObject({ code: "42501" });
    }
  });
});
