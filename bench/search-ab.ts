// What a search costs with the two newest versions of app_private.search_catalog (the newest two
// *_catalog_search_function.sql migrations, "before" and "after"; BENCH_SEARCH_AB=<before>,<after> names two
// others). Runs so far: 20261128114055 → 20261128215422 (the query normalised by the function's own expression,
// WORDS as one statement per shape of query, a title-candidate probe first; docs/benchmark.md, 2026-11-28 night),
// 20261128215422 → 20261129090638 (the close candidates before the rest; 2026-11-29 late morning).
// One seeded catalog (BENCH_CATALOG entries), the two versions taking turns (ABBA over BENCH_AB_ROUNDS rounds,
// each turn installing its migration's function) so this machine's drift falls on both alike. Each query runs
// as GET /search runs it, searchPage in its own member transaction, from 8 loops at once for 3 s a turn (after
// half a second unmeasured), which keeps both cores busy as pgbench would: searches a second, and CPU a
// search (/proc), the database backends' on Postgres, the whole process's on PGlite (its database is in it).
// Run: BENCH_DATABASES=postgres,pglite BENCH_CATALOG=100000 node bench/search-ab.ts
// Under load (underLoad below): SEARCH_AB=load BENCH_CATALOG=1000000 node bench/search-ab.ts
import { createMember } from "../lib/auth/members.ts";
import { searchPage } from "../lib/catalog/search-query.ts";
import { asMember } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget, serverEnv, type Target } from "./databases.ts";
import { measureApi } from "./load.ts";
import { searchScenario } from "./scenarios.ts";
import { startServer } from "./server.ts";
import { warmUntilSteady } from "./warm-up.ts";
import { buildIfStale } from "../scripts/next-build.ts";
import { readMigrationTexts } from "../lib/db/generated-migration.ts";
import { CATALOG_SEARCH_SUFFIX } from "../lib/catalog/search-sql.ts";
import { seed, seedCatalog } from "./seed.ts";
import { type Measurement, median } from "./stats.ts";
import { alternate, installer, settleSeeded, takeTurnsOn, turnsLine, type Variant } from "./driver-ab.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const searchFunctions = readMigrationTexts()
  .filter((file) => file.name.endsWith(CATALOG_SEARCH_SUFFIX))
  .sort((a, b) => a.name.localeCompare(b.name));
const named = process.env.BENCH_SEARCH_AB?.split(",").map((version) =>
  searchFunctions.find((file) => file.name === `${version}${CATALOG_SEARCH_SUFFIX}`),
);
const [BEFORE, AFTER] = named ?? searchFunctions.slice(-2);
if (!BEFORE || !AFTER) throw new Error("two catalog search migrations to compare");
console.log(`before: ${BEFORE.name}, after: ${AFTER.name}`);
const VARIANTS = { before: BEFORE.sql, after: AFTER.sql } as const;
// The bench's word (about 2% of titles, no title going on from it), a prefix with title candidates, two
// words seldom together, a typo, a typo whose close candidates do not make the page, two words that are
// each a candidate, three words. BENCH_SEARCH_QUERIES (comma-separated) measures others.
const QUERIES = process.env.BENCH_SEARCH_QUERIES?.split(",") ?? [
  "midnight",
  "midn",
  "midnight comet",
  "midnigth",
  "ghost kingdon",
  "lantern paradise",
  "arrow velvet harvest",
];

const switchTo = installer(VARIANTS);

async function atTheDriver(target: Target): Promise<void> {
  const name = target.name;
  try {
    await target.open();
    await seedCatalog(settings.catalogEntries);
    const member = await createMember({ email: `searchab${Date.now()}@x.example`, handle: `searchab${Date.now()}` });
    const search = (query: string) => asMember(member.id, (tx) => searchPage(tx, { query, domain: null, limit: 20 }));
    const turns = await takeTurnsOn(target, {
      rounds: ROUNDS,
      kinds: QUERIES,
      switchTo,
      run: search,
    });
    for (const query of QUERIES) console.log(turnsLine(name, query, turns, { rate: "searches/s", call: "search" }));
  } finally {
    await target.drop();
  }
}

/**
 * SEARCH_AB=load: GET /search?query=midnight as the bench's search row sends it (its seed, 50
 * connections, wrk), one server on the Postgres server, windows taking turns between the versions
 * (each warmed until level first). req/s, p99 and CPU a request (the database's part), each window.
 */
async function underLoad(target: Target): Promise<void> {
  await target.open();
  const seeded = await seed();
  await settleSeeded(target);
  const scenario = searchScenario(seeded);
  if (!scenario) throw new Error("no search scenario");
  const server = await startServer(serverEnv(target));
  const windows: Record<Variant, Measurement[]> = { before: [], after: [] };
  try {
    const cpu = { app: { group: server.group }, dbPids: target.dbPids };
    await alternate(ROUNDS, switchTo, async (variant, round) => {
      await warmUntilSteady((seconds) => measureApi(server.url, cpu, scenario, seconds));
      const m = await measureApi(server.url, cpu, scenario);
      windows[variant].push(m);
      console.log(
        `${variant.padEnd(6)} round ${round}: ${m.requestsPerSecond} req/s, p99 ${m.p99Ms} ms, CPU ${m.cpuMsPerRequest.total} ms/req (db ${m.cpuMsPerRequest.db}), unexpected ${m.unexpected}`,
      );
    });
  } finally {
    await server.stop();
    await target.drop();
  }
  const of = (variant: Variant, read: (m: Measurement) => number) => median(windows[variant].map(read));
  const line = (what: string, read: (m: Measurement) => number) =>
    `${what} ${of("before", read)} → ${of("after", read)} (×${(of("after", read) / of("before", read)).toFixed(2)})`;
  console.log(
    `${scenario.label}, ${settings.catalogEntries} entries, median of ${ROUNDS} windows each: ` +
      [
        line("req/s", (m) => m.requestsPerSecond),
        line("p99 ms", (m) => m.p99Ms),
        line("CPU ms/req", (m) => m.cpuMsPerRequest.total),
        line("database CPU ms/req", (m) => m.cpuMsPerRequest.db),
      ].join("; "),
  );
}

if (process.env.SEARCH_AB === "load") {
  buildIfStale();
  await underLoad(await createTarget("postgres"));
} else {
  for (const name of settings.databases) await atTheDriver(await createTarget(name));
}
process.exit(0);
