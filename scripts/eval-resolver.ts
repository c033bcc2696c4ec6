// npm run eval:resolver: the resolver's labelled evaluation set, run twice through the registry's
// resolve handler — with every provider replayed from recorded fixtures on 127.0.0.1, and offline
// (RESOLVER_PROVIDERS=off) — printing precision@1, artwork, creators and platform-link coverage and
// latency. `--misses` lists the inputs answered wrongly. A fresh in-memory database unless
// DATABASE_URL (or PGLITE_DIR) is set.
if (!process.env.DATABASE_URL && !process.env.PGLITE_DIR) process.env.PGLITE_DIR = "memory://";
process.env.NEXT_TELEMETRY_DISABLED = "1";
export {};

const harness = await import("../test/resolver/eval/harness.ts");
const { startFixtureServer } = await import("../test/resolver/support/fixture-server.ts");
const { closeDb } = await import("../lib/db/index.ts");

const showMisses = process.argv.includes("--misses");
const cases = harness.loadSet();
const server = await startFixtureServer(harness.evalRoutes());

async function mode(label: string, env: Record<string, string>) {
  Object.assign(process.env, env);
  harness.forgetProviderState();
  // One resolve first, untimed: the database opens (and PGlite migrates) on first use.
  await harness.runCase({ input: "warm up", kind: "phrase", platform: null, expect: { domain: "music", title: "" } });
  const results = await harness.runSet(cases);
  console.log(harness.formatFigures(label, harness.figures(results)));
  if (showMisses) console.log(harness.formatMisses(results));
  return results;
}

try {
  console.log(`Resolver evaluation: ${cases.length} labelled inputs (test/fixtures/eval/resolver-set.json)\n`);
  // Offline first, on the catalog as shipped; then with the providers, which fill entries in.
  await mode("offline (RESOLVER_PROVIDERS=off)", { RESOLVER_PROVIDERS: "off" });
  console.log();
  await mode("with providers (replayed fixtures)", harness.fixtureEnv(server.url));
  if (server.unexpected.length) {
    console.log(`\n${new Set(server.unexpected).size} provider requests had no fixture (answered 404), e.g.`);
    for (const key of [...new Set(server.unexpected)].slice(0, showMisses ? 200 : 8)) console.log(`  ${key}`);
  }
} finally {
  await server.close();
  await closeDb();
}
