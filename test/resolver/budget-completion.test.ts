import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCatalogCompletions, startCompletionWorker } from "@/lib/catalog/completion";
import { resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { useEnv } from "../limits/test-setup";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { sharedServerDatabase, startServeRest, stopServeRest } from "../support/serve-rest-process";
import { sqlAsService } from "../support/store";
import { type FixtureAnswer, type FixtureServer, routeKey, startFixtureServer } from "./support/fixture-server";
import { odesliAnswer, type Song, spotifyId } from "./support/odesli-answer";

/**
 * Politeness across instances (issue 35, item 3): a provider's request budget is a bucket in the
 * rate limits' store, shared by every instance; a resolve that finds it spent does not wait past
 * its deadline but answers partial and queues the entry, which the background worker completes.
 * Odesli is a fixture server on 127.0.0.1; each test's budget is its own (the bucket is keyed by
 * the provider's base URL, and each test gives Odesli a base URL of its own on the same server).
 */
const routes: Record<string, FixtureAnswer | FixtureAnswer[]> = {};
let server: FixtureServer;
let ada: TestMember;
let base = 0;

const newSong = (): Song => ({
  spotify: spotifyId(),
  title: `Fixture Budget ${Math.random().toString(36).slice(2, 10)}`,
});
const trackUrl = (song: Song) => `https://open.spotify.com/track/${song.spotify}`;
/** A fresh Odesli base URL (a fresh budget), answering these songs. */
function odesliFor(songs: Song[]): { url: string; asked: () => number } {
  const prefix = `/odesli-${++base}-${Date.now()}`;
  for (const song of songs) {
    routes[
      routeKey(
        "GET",
        `${prefix}/links?${new URLSearchParams({ url: trackUrl(song), userCountry: "US", songIfSingle: "true" })}`,
      )
    ] = {
      body: JSON.stringify(odesliAnswer(song)),
    };
  }
  return {
    url: `${server.url}${prefix}`,
    asked: () => server.requests.filter((request) => request.startsWith(`GET ${prefix}/`)).length,
  };
}
const resolve = (input: string) => api("POST", "/resolve", { token: ada.token, body: { input } });

describe("provider budgets and background completion", () => {
  const setEnv = useEnv();

  beforeAll(async () => {
    server = await startFixtureServer(routes);
    ada = await makeMember();
  });
  afterAll(async () => {
    await stopServeRest();
    await server.close();
  });
  beforeEach(() => {
    clearProviderCache();
    resetProviderBreaker();
    setEnv({
      RESOLVER_PROVIDERS: "odesli",
      RESOLVER_MIN_INTERVAL_MS: undefined,
      RESOLVER_RETRIES: "0",
      RESOLVER_ODESLI_BUDGET: "1/3600",
    });
  });

  it("answers partial at once when the budget is spent, and the worker completes the entry later", async () => {
    const [first, second] = [newSong(), newSong()];
    const odesli = odesliFor([first, second]);
    setEnv({ RESOLVER_ODESLI_URL: odesli.url });

    const spent = await resolve(trackUrl(first));
    expect(spent.body).toMatchObject({ title: first.title, partial: false, resolution: { completing: false } });

    const started = performance.now();
    const waiting = await resolve(trackUrl(second));
    expect(waiting.status).toBe(200);
    // Never queued behind the budget: the next token is an hour away, far past the deadline.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(waiting.body).toMatchObject({
      title: null,
      partial: true,
      resolution: { partial: true, completing: true, warnings: [{ provider: "odesli", code: "budget_exhausted" }] },
    });
    expect(odesli.asked()).toBe(1);
    const id = waiting.body.song_id as string;
    expect((await api("GET", `/catalog/${id}`, { token: ada.token })).body).toMatchObject({
      song_id: id,
      partial: true,
    });

    // While the budget stays spent, a pass leaves the entry queued, for a later attempt.
    expect(await runCatalogCompletions({ entries: [id] })).toBe(1);
    const [queued] = await sqlAsService<{ attempts: number; later: boolean; last_error: string }>(
      `select attempts, next_attempt_at > now() as later, last_error from app_private.catalog_completions where entry_id = $1`,
      [id],
    );
    expect(queued).toMatchObject({ attempts: 1, later: true, last_error: "odesli: budget_exhausted" });
    expect(odesli.asked()).toBe(1);

    // Later, with budget again, the running worker loop completes it; the client polls the entry.
    setEnv({ RESOLVER_ODESLI_BUDGET: "10/1" });
    await sqlAsService("update app_private.catalog_completions set next_attempt_at = now() where entry_id = $1", [id]);
    const worker = startCompletionWorker({ pollMs: 50, entries: [id] });
    let completed = await api("GET", `/catalog/${id}`, { token: ada.token });
    try {
      for (let tries = 0; completed.body.partial && tries < 100; tries++) {
        await new Promise((done) => setTimeout(done, 100));
        completed = await api("GET", `/catalog/${id}`, { token: ada.token });
      }
    } finally {
      await worker.stop();
    }
    expect(odesli.asked()).toBe(2);
    expect(completed.body).toMatchObject({
      song_id: id,
      title: second.title,
      partial: false,
      creators: [{ name: "The Fixtures" }],
    });
    expect(await sqlAsService("select 1 from app_private.catalog_completions where entry_id = $1", [id])).toEqual([]);
    // A later resolve answers the completed entry from the catalog, asking nobody.
    const again = await resolve(trackUrl(second));
    expect(again.body).toMatchObject({ song_id: id, partial: false, resolution: { completing: false, providers: [] } });
    expect(odesli.asked()).toBe(2);
  });

  it("does not queue an entry no provider could name for a lasting reason (not found)", async () => {
    const song = newSong();
    const odesli = odesliFor([]);
    setEnv({ RESOLVER_ODESLI_URL: odesli.url });
    const answer = await resolve(trackUrl(song));
    expect(answer.body).toMatchObject({ partial: true, resolution: { completing: false } });
    expect(
      await sqlAsService("select 1 from app_private.catalog_completions where entry_id = $1", [answer.body.song_id]),
    ).toEqual([]);
  });

  it.skipIf(!process.env.REDIS_URL)(
    "shares one budget between two server processes on the same Redis",
    async () => {
      const songs = [newSong(), newSong(), newSong(), newSong()];
      const odesli = odesliFor(songs);
      const dbUrl = await sharedServerDatabase("pds_budget");
      const env = {
        ...process.env,
        DATABASE_URL: dbUrl,
        RESOLVER_PROVIDERS: "odesli",
        RESOLVER_ODESLI_URL: odesli.url,
        RESOLVER_ODESLI_BUDGET: "2/3600",
        RESOLVER_MIN_INTERVAL_MS: "",
        RESOLVER_RETRIES: "0",
      };
      const instances = await Promise.all([startServeRest(env), startServeRest(env)]);
      const answers = [];
      for (const [i, song] of songs.entries()) {
        const instance = instances[i % 2];
        const response = await fetch(`${instance?.url}/api/v1/resolve`, {
          method: "POST",
          headers: { authorization: `Bearer ${ada.token}`, "content-type": "application/json" },
          body: JSON.stringify({ input: trackUrl(song) }),
        });
        answers.push((await response.json()) as { partial: boolean; resolution: { warnings: { code: string }[] } });
      }
      // Two requests in the budget between both instances, not two each.
      expect(odesli.asked()).toBe(2);
      expect(answers.map((answer) => answer.partial)).toEqual([false, false, true, true]);
      expect(answers[3]?.resolution.warnings).toMatchObject([{ code: "budget_exhausted" }]);
    },
    90_000,
  );
});
