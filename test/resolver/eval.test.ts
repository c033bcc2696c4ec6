import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalRoutes, figures, fixtureEnv, forgetProviderState, formatMisses, loadSet, runSet } from "./eval/harness";
import { overrideEnv } from "../limits/test-setup";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";

/**
 * The evaluation set (npm run eval:resolver) with every provider replayed from its fixtures: the
 * issue's quality targets hold in CI on both databases. Latency is the script's business, not a test's.
 */
let server: FixtureServer;
let restoreEnv: () => void = () => {};

beforeAll(async () => {
  server = await startFixtureServer(evalRoutes());
  restoreEnv = overrideEnv(fixtureEnv(server.url));
  forgetProviderState();
});

afterAll(async () => {
  restoreEnv();
  forgetProviderState();
  await server.close();
});

describe("resolver evaluation set, providers replayed", () => {
  it("covers what the issue asks of it: 150+ inputs, 12+ platforms, every kind of input", () => {
    const cases = loadSet();
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.flatMap((c) => c.platform ?? [])).size).toBeGreaterThanOrEqual(12);
    const kinds = new Set(cases.map((c) => c.kind));
    for (const kind of ["link", "short_link", "locale", "phrase", "non_english", "isbn", "article"])
      expect(kinds).toContain(kind);
    for (const domain of ["music", "film", "books", "places", "articles"]) {
      expect(cases.some((c) => c.expect.domain === domain)).toBe(true);
    }
  });

  it("names the expected work first for ≥ 95% of inputs, with artwork and ≥ 3 platforms on ≥ 90% of songs", async () => {
    const results = await runSet(loadSet());
    const f = figures(results);
    // On failure, the misses say which inputs and what came back instead.
    expect(f.precisionAt1, formatMisses(results)).toBeGreaterThanOrEqual(0.95);
    expect(f.musicAnswers).toBeGreaterThanOrEqual(60);
    expect(f.musicWithArtwork).toBeGreaterThanOrEqual(0.9);
    expect(f.musicWithThreeLinks).toBeGreaterThanOrEqual(0.9);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    // The providers' HTTP clients really ran: the answers are not the offline catalog's alone.
    expect(server.requests.length).toBeGreaterThan(50);
  }, 240_000);
});
