// How a row's latency settles on one server over successive windows, after the bench's warm-up has
// ended at a level requests/s: the list's p99 kept falling for ~30 s more (2026-11-24-fourth-pass.md).
//   node bench/settle.ts [list|search|floor|naive] [windows]   (BENCH_DATABASES: its first database; BENCH_CATALOG)
import { rateLimitEnv, settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { FLOOR_APP, naiveScenario, staticScenario } from "./floor.ts";
import { measureApi, type Scenario } from "./load.ts";
import { apiScenarios, listScenario } from "./scenarios.ts";
import { type Seeded, seed } from "./seed.ts";
import { startServer } from "./server.ts";

const row = process.argv[2] ?? "list";
const windows = Number(process.argv[3] ?? 8);

function scenarioFor(name: string, seeded: Seeded): Scenario {
  if (name === "list") return listScenario(seeded.members);
  if (name === "naive") return naiveScenario(seeded.members);
  if (name !== "search") return staticScenario;
  const search = apiScenarios(seeded).scenarios.find((scenario) => scenario.label.startsWith("GET /search"));
  if (!search) throw new Error("no search row in the bench's scenarios");
  return search;
}

const target = await createTarget(settings.databases[0] ?? "postgres");
try {
  await target.open();
  const seeded = await seed();
  await target.close();
  const env = { ...target.env, ...rateLimitEnv, REDIS_URL: "" };
  const server = await startServer(env, row === "list" || row === "search" ? {} : { dir: FLOOR_APP, health: "/static" });
  const scenario = scenarioFor(row, seeded);
  const cpu = { app: { group: server.group }, dbPids: target.dbPids };
  try {
    for (let i = 0; i < windows; i++) {
      const m = await measureApi(server.url, cpu, scenario, settings.seconds, settings.connections);
      await server.drain();
      console.log(
        `${target.name} ${m.label}, window ${i + 1} (${settings.seconds} s): ${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, CPU ${m.cpuMsPerRequest.total} ms/req (app ${m.cpuMsPerRequest.app}, db ${m.cpuMsPerRequest.db})`,
      );
    }
  } finally {
    await server.stop();
  }
} finally {
  await target.drop();
}
process.exit(0);
