// What V8's heap settings do to the service's memory and CPU under the bench's API rows: each
// variant (production's flags, scripts/server-runtime.ts, plus the variant's) on a fresh server, the
// API rows one after another, the server's RSS after them; variants in alternating order each round,
// so the machine's drift falls on all alike.
//   BENCH_DATABASES=postgres AB_ROUNDS=2 AB_SECONDS=8 AB_VARIANTS='|--heap-growing-percent=20' node bench/memory-ab.ts
import { settings } from "./config.ts";
import { serverEnv } from "./databases.ts";
import { measureApi } from "./load.ts";
import { apiScenarios } from "./scenarios.ts";
import { seededTarget } from "./seed.ts";
import { startServer } from "./server.ts";
import { buildIfStale } from "../scripts/next-build.ts";
import { median } from "./stats.ts";

const connections = settings.connections;
const seconds = Number(process.env.AB_SECONDS ?? 8);
const rounds = Number(process.env.AB_ROUNDS ?? 2);
/** Variants separated by "|", each its extra Node flags separated by spaces; an empty one is production's alone. */
const VARIANTS = (process.env.AB_VARIANTS ?? "|--heap-growing-percent=20").split("|").map((v) => v.trim());

buildIfStale();
const { name, target, seeded } = await seededTarget();
try {
  const rows = apiScenarios(seeded).scenarios;
  const results = new Map<string, { rss: number[]; cpu: number[]; rps: number[] }>();
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) {
      const server = await startServer(serverEnv(target), { nodeFlags: variant ? variant.split(/\s+/) : [] });
      const cpu = { app: { group: server.group }, dbPids: target.dbPids };
      try {
        let appMs = 0;
        let requests = 0;
        let rps = 0;
        for (const row of rows) {
          await measureApi(server.url, cpu, row, 2, connections);
          await server.drain();
          const m = await measureApi(server.url, cpu, row, seconds, connections);
          await server.drain();
          const n = m.requestsPerSecond * seconds;
          appMs += m.cpuMsPerRequest.app * n;
          requests += n;
          rps += m.requestsPerSecond / rows.length;
        }
        const key = variant || "production's flags";
        const result = results.get(key) ?? { rss: [], cpu: [], rps: [] };
        result.rss.push(server.rssMb());
        result.cpu.push(Math.round((appMs / requests) * 1000) / 1000);
        result.rps.push(Math.round(rps));
        results.set(key, result);
        console.log(
          `round ${round}: ${key.padEnd(40)} RSS ${result.rss.at(-1)} MB, app ${result.cpu.at(-1)} ms/req, mean ${result.rps.at(-1)} req/s`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  console.log(`\n${rows.length} API rows, ${name}, ${connections} connections, ${seconds} s each, ${rounds} rounds:`);
  for (const [key, r] of results) {
    console.log(
      `${key.padEnd(40)} RSS ${median(r.rss)} MB [${r.rss.join(", ")}]  app ${median(r.cpu)} ms/req [${r.cpu.join(", ")}]  ${median(r.rps)} req/s`,
    );
  }
} finally {
  await target.drop();
}
process.exit(0);
