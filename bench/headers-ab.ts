// Whether sending a response's headers with its body (bench/headers-with-body.ts, a ServerResponse
// patch the service used to install at start) still pays: the list row, in one run, on server.ts and
// on `next start` (the route files through Next's router), each with and without the patch, in
// alternating rounds so the machine's drift falls on both alike.
//   BENCH_DATABASES=postgres BENCH_CATALOG=1000 AB_ROUNDS=3 AB_SECONDS=8 [AB_SERVERS='next start'] node bench/headers-ab.ts
import path from "node:path";
import { serverEnv } from "./databases.ts";
import { measureApi } from "./load.ts";
import { listScenario } from "./scenarios.ts";
import { seededTarget } from "./seed.ts";
import { startServer } from "./server.ts";
import { buildIfStale } from "../scripts/next-build.ts";
import { median } from "./stats.ts";

const connections = Number(process.env.AB_CONNECTIONS ?? 16);
const seconds = Number(process.env.AB_SECONDS ?? 8);
const rounds = Number(process.env.AB_ROUNDS ?? 3);
const PRELOAD = path.resolve(import.meta.dirname, "headers-with-body.ts");

/** AB_SERVERS narrows the run to one server ("server.ts" or "next start"). */
const VARIANTS = [
  { server: "server.ts", patch: false },
  { server: "server.ts", patch: true },
  { server: "next start", patch: false },
  { server: "next start", patch: true },
].filter((variant) => !process.env.AB_SERVERS || variant.server === process.env.AB_SERVERS);

buildIfStale();
const { name, target, seeded } = await seededTarget();
try {
  const scenario = listScenario(seeded.members);
  const results = new Map<string, { rps: number[]; cpu: number[] }>();
  for (let round = 1; round <= rounds; round++) {
    // Each round in another order, so no variant always runs first or last.
    const order = round % 2 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) {
      const env = {
        ...serverEnv(target),
        ...(variant.patch
          ? {
              NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${PRELOAD}`.trim(),
              BENCH_HEADERS_WITH_BODY: "1",
            }
          : {}),
      };
      const server = await startServer(env, variant.server === "next start" ? { dir: process.cwd() } : {});
      const cpu = { app: { group: server.group }, dbPids: target.dbPids };
      try {
        await measureApi(server.url, cpu, scenario, 3, connections);
        await server.drain();
        const m = await measureApi(server.url, cpu, scenario, seconds, connections);
        await server.drain();
        const key = `${variant.server}, ${variant.patch ? "with" : "without"} the patch`;
        const row = results.get(key) ?? { rps: [], cpu: [] };
        row.rps.push(m.requestsPerSecond);
        row.cpu.push(m.cpuMsPerRequest.app);
        results.set(key, row);
        console.log(
          `round ${round}: ${key.padEnd(36)} ${m.requestsPerSecond} req/s, app ${m.cpuMsPerRequest.app} ms/req (${m.unexpected} unexpected)`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  console.log(
    `\n${scenario.label}, ${name}, ${connections} connections, ${seconds} s, ${rounds} rounds (median; all):`,
  );
  for (const [key, row] of results) {
    console.log(
      `${key.padEnd(36)} ${String(median(row.rps)).padStart(7)} req/s  app ${median(row.cpu)} ms/req   [${row.rps.join(", ")}] [${row.cpu.join(", ")}]`,
    );
  }
} finally {
  await target.drop();
}
