// npm run bench: the cost of each API request against the database's own ceiling and the
// framework's floor, on the Postgres server and on PGlite, measured in one run (see docs/benchmark.md).
import os from "node:os";
import path from "node:path";
import { measureCeiling } from "./ceiling.ts";
import { rateLimitEnv, settings } from "./config.ts";
import { createTarget, type Target, serverEnv } from "./databases.ts";
import { explainList, explainSearch, planSummary } from "./explain.ts";
import { measureColdStarts, printColdStarts } from "./cold-start.ts";
import { expected, loadGenerator, measureApi, probe, type Scenario } from "./load.ts";
import { type Bounds, type DatabaseResult, type GrowthStep, printDatabase, ratios, writeResults } from "./report.ts";
import type { Measurement } from "./stats.ts";
import { apiScenarios, CREATE_LABEL, LIST_LABEL, listScenario, onNextStart, searchScenario } from "./scenarios.ts";
import { buildFloorIfStale, FLOOR_APP, naiveScenario, staticScenario } from "./floor.ts";
import { addRows, analyze, type Seeded, seed, tableSizes } from "./seed.ts";
import { buildIfStale } from "../scripts/next-build.ts";
import { checkTargets, printTargets } from "./targets.ts";
import { type RunningServer, startServer } from "./server.ts";
import { warmUntilSteady } from "./warm-up.ts";
import { matches, seedVerbRows, verbScenarios } from "./verbs.ts";
import { benchWebhooks, printWebhooks } from "./webhooks.ts";

const started = Date.now();
const log = (what: string) => console.log(`[${Math.round((Date.now() - started) / 1000)} s] ${what}`);
/** Rows measured again under `next start` (issue 34, target 3: the route files, as Vercel runs them). */
const NEXT_START_ROWS = [LIST_LABEL, CREATE_LABEL];
const REPO = path.resolve(import.meta.dirname, "..");
/** PGlite rows measured again with the database on the server's main thread (PGLITE_THREAD=main). */
const MAIN_THREAD_ROWS = [LIST_LABEL, "POST /items"];

type Measure = (scenario: Scenario, seconds?: number, connections?: number) => Promise<Measurement>;

/** Whether `--rows` asks for a row or a pass ("ceiling", "growth", "webhooks", "cold start"); all without it. */
const wanted = (label: string) => matches(label, settings.rows);

/** A verb row: one warm-up window, then settings.verbSeconds (21 rows per database keep the run's length). */
async function measureVerbRow(measure: Measure, scenario: Scenario): Promise<Measurement> {
  const warm = await measure(scenario, settings.verbWarmupSeconds);
  return {
    ...(await measure(scenario, settings.verbSeconds)),
    warmUp: { seconds: settings.verbWarmupSeconds, windows: [warm.requestsPerSecond] },
  };
}

/**
 * The soak: the verb rows again, round after round, for settings.soakMinutes, the server's RSS read
 * after each round (a delete row is left out: its rows are spent).
 */
async function soak(measure: Measure, rows: readonly Scenario[], rss: () => number) {
  const rounds: { minutes: number; rssMb: number }[] = [];
  const began = Date.now();
  const repeatable = rows.filter((row) => !row.pool);
  if (!repeatable.length) return rounds;
  while ((Date.now() - began) / 60_000 < settings.soakMinutes) {
    for (const row of repeatable) await measure(row, SOAK_ROW_SECONDS);
    rounds.push({ minutes: Math.round((Date.now() - began) / 600) / 100, rssMb: rss() });
    log(`soak: ${rounds.at(-1)?.minutes} min, RSS ${rounds.at(-1)?.rssMb} MB`);
  }
  return rounds;
}
const SOAK_ROW_SECONDS = 5;

/** Each row after its own warm-up at the row's concurrency, until requests/s is level (warm-up.ts). */
async function measureRow(measure: Measure, scenario: Scenario): Promise<Measurement> {
  const warmUp = await warmUntilSteady((seconds) => measure(scenario, seconds));
  return { ...(await measure(scenario)), warmUp };
}

/** Starts the service (server.ts), or `next start` of `dir`, on the target and hands over a measuring function. */
async function withServer<T>(
  target: Target,
  work: (measure: Measure, url: string, server: RunningServer) => Promise<T>,
  app: { dir?: string; health?: string; env?: Record<string, string> } = {},
) {
  const server: RunningServer = await startServer({ ...serverEnv(target), ...app.env }, app);
  const cpu = { app: { group: server.group }, dbPids: target.dbPids };
  const measure: Measure = async (scenario, seconds, connections) => {
    const m = await measureApi(server.url, cpu, scenario, seconds, connections);
    // wrk leaves requests in flight when its time is up; the next measurement must not inherit
    // them. Health queues behind them on the database (PGlite runs one query at a time).
    await server.drain();
    return m;
  };
  try {
    return await work(measure, server.url, server);
  } finally {
    await server.stop();
  }
}

/**
 * The static floor and (on Postgres) the naive route, from bench/floor-app, warmed like the API.
 * Measured before and after the API rows: this machine's speed drifts ±15% within a run, and the
 * ratios take the bounds' mean (report.ts).
 */
async function measureBounds(target: Target, seeded: Seeded): Promise<Bounds> {
  return withServer(
    target,
    async (measure) => ({
      floor: await measureRow(measure, staticScenario),
      ...(target.name !== "pglite" ? { naive: await measureRow(measure, naiveScenario(seeded.members)) } : {}),
    }),
    { dir: FLOOR_APP, health: "/static" },
  );
}

/** Grows the growth member to `rows` per table (with the server stopped: PGlite is one process). */
async function growTo(target: Target, seeded: Seeded, rows: number, owned: number): Promise<Omit<GrowthStep, "list">> {
  await target.open();
  try {
    await addRows([seeded.growth.id], rows - owned, seeded.catalogIds);
    await analyze();
    log(`${target.name}: ${rows} rows per member table in place`);
    const explain: Record<string, string> = {};
    for (const tool of ["collections_list", "items_list"]) explain[tool] = await explainList(tool, seeded.growth.id);
    const sizes = await tableSizes();
    const plans = Object.fromEntries(Object.entries(explain).map(([tool, plan]) => [tool, planSummary(plan)]));
    return { rowsPerMember: rows, tableSizes: sizes, explain, plans };
  } finally {
    await target.close();
    // As after the seed: the rows just loaded are vacuumed before the step is measured, or autovacuum
    // works through them (a connection to the bench's database, so counted as its CPU) under the row.
    await target.settle();
  }
}

async function benchDatabase(name: string): Promise<DatabaseResult> {
  log(`${name}: seeding and the driver ceiling`);
  const target = await createTarget(name);
  const result: DatabaseResult = {
    database: name,
    tableSizes: {},
    ceiling: [],
    api: [],
    skipped: [],
    growth: [],
    bounds: [],
    loadAverage: { before: os.loadavg(), after: [] },
  };
  try {
    await target.open();
    const seeded = await seed();
    log(`${name}: seeded`);
    if (wanted("ceiling")) result.ceiling = await measureCeiling(seeded, target.dbPids);
    if (wanted("search plan")) {
      const member = seeded.members[0] ?? seeded.growth;
      result.searchPlans = [];
      for (const query of [seeded.searchTerm, `${seeded.searchTerm} city`]) {
        const plans = await explainSearch(member.id, query);
        result.searchPlans.push({
          query,
          plans: plans.map(({ plan }) => plan),
          summaries: plans.map(({ label, plan }) => `${label}: ${planSummary(plan)}`),
        });
      }
    }
    const verbRows = verbScenarios(seeded, await seedVerbRows(seeded, settings.deletePerMember), settings.rows);
    result.tableSizes = await tableSizes();
    await target.close();
    // The seed's tables vacuumed and a checkpoint taken before any row: otherwise autovacuum works
    // through a million-entry catalog while the first rows run, and the bounds and rows meet it unevenly.
    await target.settle();
    const { scenarios: all, skipped } = apiScenarios(seeded);
    const scenarios = all.filter((s) => wanted(s.label));
    result.skipped.push(...skipped);
    log(`${name}: API under load (${settings.connections} connections, ${settings.seconds} s each)`);
    const sizes = name === "pglite" ? settings.growthPglite : settings.growthServer;
    let owned = 0;
    const growthStep = async (rows: number, row: (scenario: Scenario) => Promise<Measurement>) => {
      log(`${name}: growth, ${rows} rows per member table`);
      const step = await growTo(target, seeded, rows, owned);
      owned = rows;
      const list = await row(listScenario([seeded.growth], `GET /collections, member owns ${rows}`));
      // The catalog is shared: a member's own rows must not slow their search (issue 34, target 7).
      const search = searchScenario({ ...seeded, members: [seeded.growth] });
      const searched = search && (await row({ ...search, label: `${search.label}, member owns ${rows}` }));
      result.growth.push({ ...step, list, ...(searched ? { search: searched } : {}) });
    };
    result.bounds.push(await measureBounds(target, seeded));
    await withServer(target, async (measure, url, server) => {
      const afterStartMb = server.rssMb();
      for (const scenario of [...scenarios, ...verbRows]) {
        const first = await probe(url, scenario);
        if (!expected(scenario).includes(first.status) || scenario.refused?.(first.body)) {
          result.skipped.push(
            `${scenario.label}: answered ${first.status} (${first.body.slice(0, 300)}), expected ${scenario.expect}`,
          );
          continue;
        }
        const m = await (verbRows.includes(scenario) ? measureVerbRow : measureRow)(measure, scenario);
        log(
          `${name}: ${m.label}: ${m.requestsPerSecond} req/s, p99 ${m.p99Ms} ms${m.unexpected ? `, ${m.unexpected} unexpected` : ""}`,
        );
        result.api.push(m);
      }
      const afterApiMb = server.rssMb();
      result.memory = {
        afterStartMb,
        afterApiMb,
        soak: settings.soakMinutes ? await soak(measure, verbRows, server.rssMb) : [],
      };
    });
    if (wanted("next start")) {
      log(`${name}: next start (the route files)`);
      await withServer(
        target,
        async (measure) => {
          for (const scenario of all.filter((s) => NEXT_START_ROWS.includes(s.label)).map(onNextStart)) {
            const m = await measureRow(measure, scenario);
            log(`${name}: ${m.label}: ${m.requestsPerSecond} req/s, p99 ${m.p99Ms} ms`);
            result.api.push(m);
          }
        },
        { dir: REPO },
      );
    }
    if (wanted("cold start")) {
      log(`${name}: cold start`);
      result.coldStarts = await measureColdStarts(serverEnv(target), seeded.members[0] ?? seeded.growth);
    }
    if (target.name === "pglite" && scenarios.some((s) => MAIN_THREAD_ROWS.includes(s.label))) {
      // The same rows with PGlite in the server's own thread, as it ran before the worker thread.
      await withServer(
        target,
        async (measure) => {
          for (const scenario of scenarios.filter((s) => MAIN_THREAD_ROWS.includes(s.label))) {
            result.api.push(
              await measureRow(measure, { ...scenario, label: `${scenario.label}, PGlite on the main thread` }),
            );
          }
        },
        { env: { PGLITE_THREAD: "main" } },
      );
    }
    result.bounds.push(await measureBounds(target, seeded));
    if (target.name === "pglite") {
      // Each step loads rows with the folder opened here, then starts a server on it.
      for (const rows of wanted("growth") ? sizes : []) {
        await growthStep(rows, (scenario) => withServer(target, (measure) => measureRow(measure, scenario)));
      }
    } else if (wanted("growth")) {
      // A server database takes the bulk load while the API waits.
      await withServer(target, async (measure) => {
        for (const rows of sizes) await growthStep(rows, (scenario) => measureRow(measure, scenario));
      });
    }
    if (wanted("webhooks")) {
      log(`${name}: webhooks, commit to receiver acknowledgement`);
      result.webhooks = await benchWebhooks(target);
    }
  } finally {
    await target.drop();
  }
  result.loadAverage.after = os.loadavg();
  return result;
}

const build = buildIfStale();
buildFloorIfStale();
const databases: DatabaseResult[] = [];
for (const name of settings.databases) databases.push(await benchDatabase(name));

console.log(`\nLoad generator: ${loadGenerator()} (bench/wrk.ts), ${settings.connections} connections.`);
console.log(
  `Rate limits for the run: ${JSON.stringify(rateLimitEnv)} (memory store); tokens over ${settings.members} members.`,
);
console.log(
  [
    "CPU ms/req: application plus database server per request (the server's backends in brackets; PGlite runs inside the application, on a worker thread unless the row says otherwise).",
    "÷raw, ÷floor, ÷naive: the API's requests/s as a share of the raw driver loop's (on PGlite: PGlite's own loop in this process, no thread hop), the static Next route's and the naive route's (bench/floor-app). ×floor CPU: its CPU per request as a multiple of the floor's.",
    "load: one-minute load average at the end of the measurement (2 cores; other work on the machine moves req/s, much less CPU per request).",
  ].join("\n"),
);
for (const result of databases) {
  printDatabase(result);
  if (result.coldStarts) printColdStarts(result.database, result.coldStarts);
  if (result.webhooks) printWebhooks(result.database, result.webhooks);
  printTargets(result.database, checkTargets(result, settings.catalogEntries, os.cpus().length));
}
const file = writeResults({
  startedAt: new Date(started).toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  machine: { cpus: os.cpus().length, node: process.version, platform: `${os.type()} ${os.release()}` },
  build,
  settings,
  loadGenerator: loadGenerator(),
  rateLimits: { env: rateLimitEnv, store: "memory" },
  databases: databases.map((d) => ({
    ...d,
    ratios: ratios(d),
    targets: checkTargets(d, settings.catalogEntries, os.cpus().length),
  })),
});
console.log(`\nWrote ${file} in ${Math.round((Date.now() - started) / 1000)} s.`);
process.exit(0);
