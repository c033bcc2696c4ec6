// The cost of the activity ledger (issue 33: the actor and the previous row image of each credential's
// write) on the create and update rows: one build, one seeded database, the ledger on and off in turn
// (ABBA order over BENCH_AB_ROUNDS rounds, the machine's drift spread over both), each variant on a fresh
// server with its own warm-up. Prints requests/s and CPU per request per variant, and on/off ratios of the
// medians. "off" is the store as it was before issue 33 (bench/ledger-switch.ts).
// Run: BENCH_DATABASES=postgres BENCH_CATALOG=1000 node bench/activity-ab.ts  (the ledger comes from the
// worktree's migrations, applied when the database is seeded)
import { buildIfStale } from "../scripts/next-build.ts";
import { settings } from "./config.ts";
import { createTarget, type Target, serverEnv } from "./databases.ts";
import { type LedgerVariant, setLedger } from "./ledger-switch.ts";
import { measureApi, probe, type Scenario } from "./load.ts";
import { apiScenarios, CREATE_LABEL, UPDATE_LABEL } from "./scenarios.ts";
import { seed } from "./seed.ts";
import { startServer } from "./server.ts";
import type { Measurement } from "./stats.ts";
import { warmUntilSteady } from "./warm-up.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 2;

async function measureVariant(target: Target, rows: readonly Scenario[]): Promise<Measurement[]> {
  const server = await startServer(serverEnv(target));
  const cpu = { app: { group: server.group }, dbPids: target.dbPids };
  const measure = async (scenario: Scenario, seconds?: number) => {
    const m = await measureApi(server.url, cpu, scenario, seconds);
    await server.drain();
    return m;
  };
  try {
    const out: Measurement[] = [];
    for (const scenario of rows) {
      const first = await probe(server.url, scenario);
      if (first.status !== scenario.expect) throw new Error(`${scenario.label}: ${first.status} ${first.body}`);
      const warmUp = await warmUntilSteady((seconds) => measure(scenario, seconds));
      await target.settle();
      out.push({ ...(await measure(scenario)), warmUp });
    }
    return out;
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

// BENCH_REUSE_BUILD=1: measure the build at hand (both variants run the same one, so it need not be current).
if (!process.env.BENCH_REUSE_BUILD) buildIfStale();
for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const seeded = await seed();
    await target.close();
    const rows = apiScenarios(seeded).scenarios.filter((s) => s.label === CREATE_LABEL || s.label === UPDATE_LABEL);
    const results: Record<LedgerVariant, Measurement[]> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of (round % 2 ? ["off", "on"] : ["on", "off"]) as LedgerVariant[]) {
        await setLedger(target, variant);
        const measured = await measureVariant(target, rows);
        results[variant].push(...measured);
        for (const m of measured) {
          console.log(
            `${name} round ${round + 1} ${variant.padEnd(3)} ${m.label.padEnd(26)} ${m.requestsPerSecond} req/s, ${m.cpuMsPerRequest.total} ms CPU/req, p50 ${m.p50Ms} ms, load ${m.load1}, unexpected ${m.unexpected}`,
          );
        }
      }
    }
    for (const row of rows) {
      const of = (variant: LedgerVariant) => results[variant].filter((m) => m.label === row.label);
      const rps = (variant: LedgerVariant) => median(of(variant).map((m) => m.requestsPerSecond));
      const cpu = (variant: LedgerVariant) => median(of(variant).map((m) => m.cpuMsPerRequest.total));
      // Each round's on and off ran next to each other, so their ratio leaves out the drift between rounds
      // (PGlite's rows slowed by a quarter and recovered within one run of 2026-11-27); the median of those
      // ratios is the paired figure, beside the ratio of the two medians.
      const paired = median(
        of("on").map((on, round) => on.cpuMsPerRequest.total / (of("off")[round]?.cpuMsPerRequest.total ?? Number.NaN)),
      );
      console.log(
        `${name} ${row.label}: median req/s on ${rps("on")} / off ${rps("off")} = ${(rps("on") / rps("off")).toFixed(3)}; ` +
          `CPU ms/req on ${cpu("on")} / off ${cpu("off")} = ${(cpu("on") / cpu("off")).toFixed(3)}; ` +
          `median of the rounds' on/off CPU ratios ${paired.toFixed(3)}`,
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
