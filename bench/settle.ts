// How a row's latency settles on one server over successive windows, after the bench's warm-up has
// ended at a level requests/s: the list's p99 kept falling for ~30 s more (2026-11-24-fourth-pass.md).
//   node bench/settle.ts <row>[,<row>…] [windows]   (BENCH_DATABASES: its first database; BENCH_CATALOG)
//   Rows: list, search, floor, naive; list-next-start (the service's list under `next start`, as it ran
//   before server.ts); plain-floor, plain-naive (the floor app's routes on node:http, no Next) and
//   plain-list (scripts/serve-rest.ts).
// Several rows (a comma list) run on servers started together, their windows taking turns, so a drift
// of this machine's speed falls on each alike: an A/B.
// BENCH_GC=1 adds each window's GC pauses in the server (bench/gc-observer.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { settings } from "./config.ts";
import { createTarget, serverEnv } from "./databases.ts";
import { buildFloorIfStale, FLOOR_APP, naiveScenario, staticScenario } from "./floor.ts";
import { measureApi, type Scenario } from "./load.ts";
import { listScenario, onNextStart, searchScenario } from "./scenarios.ts";
import { type Seeded, seed } from "./seed.ts";
import { type RunningServer, startServer } from "./server.ts";
import { buildIfStale } from "../scripts/next-build.ts";

const rows = (process.argv[2] ?? "list").split(",");
const windows = Number(process.argv[3] ?? 8);
/** What serves a row: the service, the floor app (bench/floor-app) on Next, or its routes on node:http. */
type Server = "service" | "next-start" | "floor-app" | "plain" | "rest";
const ROWS: Record<string, (seeded: Seeded) => { scenario: Scenario | null; server: Server }> = {
  list: (seeded) => ({ scenario: listScenario(seeded.members), server: "service" }),
  "list-next-start": (seeded) => ({ scenario: onNextStart(listScenario(seeded.members)), server: "next-start" }),
  "plain-list": (seeded) => ({ scenario: onNodeHttp(listScenario(seeded.members)), server: "rest" }),
  search: (seeded) => ({ scenario: searchScenario(seeded), server: "service" }),
  floor: () => ({ scenario: staticScenario, server: "floor-app" }),
  naive: (seeded) => ({ scenario: naiveScenario(seeded.members), server: "floor-app" }),
  "plain-floor": () => ({ scenario: onNodeHttp(staticScenario), server: "plain" }),
  "plain-naive": (seeded) => ({ scenario: onNodeHttp(naiveScenario(seeded.members)), server: "plain" }),
};
function onNodeHttp(scenario: Scenario): Scenario {
  return { ...scenario, label: `${scenario.label}, on node:http (no Next)` };
}
const SERVERS: Record<Server, Parameters<typeof startServer>[1]> = {
  service: {},
  "next-start": { dir: path.resolve(import.meta.dirname, "..") },
  "floor-app": { dir: FLOOR_APP, health: "/static" },
  rest: { script: path.resolve(import.meta.dirname, "../scripts/serve-rest.ts"), health: "/api/v1/health" },
  plain: { script: path.resolve(import.meta.dirname, "plain-server.ts"), health: "/static" },
};
for (const row of rows) if (!ROWS[row]) throw new Error(`unknown row "${row}": ${Object.keys(ROWS).join(", ")}`);

const target = await createTarget(settings.databases[0] ?? "postgres");
try {
  await target.open();
  const seeded = await seed();
  await target.close();
  const picked = rows.map((row) => {
    const { scenario, server } = (ROWS[row] as (typeof ROWS)[string])(seeded);
    if (!scenario) throw new Error(`no ${row} row: its capability is not in the registry`);
    return { row, scenario, server };
  });
  // A fresh checkout has neither build; next start would refuse without one.
  if (picked.some((p) => p.server === "floor-app")) buildFloorIfStale();
  if (picked.some((p) => p.server === "service" || p.server === "next-start")) buildIfStale();
  const gcLog = process.env.BENCH_GC === "1" ? path.join(os.tmpdir(), `bench-gc-${process.pid}.log`) : null;
  const gcEnv: Record<string, string> = gcLog
    ? {
        BENCH_GC_LOG: gcLog,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${path.resolve(import.meta.dirname, "gc-observer.ts")}`,
      }
    : {};
  const env = { ...serverEnv(target), ...gcEnv };
  const servers: RunningServer[] = [];
  try {
    for (const p of picked) servers.push(await startServer(env, SERVERS[p.server]));
    for (let i = 0; i < windows; i++) {
      for (const [n, { scenario }] of picked.entries()) {
        const server = servers[n] as RunningServer;
        const cpu = { app: { group: server.group }, dbPids: target.dbPids };
        const from = Date.now();
        const m = await measureApi(server.url, cpu, scenario, settings.seconds, settings.connections);
        const to = Date.now();
        await server.drain();
        console.log(
          `${target.name} ${m.label}, window ${i + 1} (${settings.seconds} s): ${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, CPU ${m.cpuMsPerRequest.total} ms/req (app ${m.cpuMsPerRequest.app}, db ${m.cpuMsPerRequest.db})`,
        );
        // Both servers write to one log; the window's time span tells them apart only with one server.
        if (gcLog && picked.length === 1) console.log(`  GC in the server: ${await gcPauses(gcLog, from, to)}`);
      }
    }
  } finally {
    for (const server of servers) await server.stop();
    if (gcLog) fs.rmSync(gcLog, { force: true });
  }
} finally {
  await target.drop();
}
process.exit(0);

/** The pauses the observer logged between `from` and `to`, by kind: how many, their sum, the longest. */
async function gcPauses(log: string, from: number, to: number): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 600)); // the observer writes every 500 ms
  const byKind = new Map<string, { n: number; sum: number; max: number }>();
  for (const line of fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n") : []) {
    const [at, kind, ms] = line.split(" ");
    if (!kind || Number(at) < from || Number(at) > to) continue;
    const k = byKind.get(kind) ?? { n: 0, sum: 0, max: 0 };
    byKind.set(kind, { n: k.n + 1, sum: k.sum + Number(ms), max: Math.max(k.max, Number(ms)) });
  }
  const seconds = (to - from) / 1000;
  return (
    [...byKind]
      .map(
        ([kind, k]) =>
          `${kind} ${k.n} (${Math.round(k.sum)} ms, ${(k.sum / seconds / 10).toFixed(1)}% of the time, longest ${k.max.toFixed(1)} ms)`,
      )
      .join(", ") || "none"
  );
}
