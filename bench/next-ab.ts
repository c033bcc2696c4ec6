// A short side-by-side at a few connections, with the server's CPU per request: the list, the get and
// the 401 of the API under scripts/serve-rest.ts (node:http, no Next) and under `next start`, and the
// floor app's static and naive routes.
// For reading where the list's cost over the get goes when Next serves it (bench/results/*-list-cost.md).
//   BENCH_DATABASES=postgres BENCH_CATALOG=1000 BENCH_ROWS_PER_MEMBER=100 node bench/next-ab.ts
import { settings } from "./config.ts";
import { createTarget, serverEnv } from "./databases.ts";
import { buildFloorIfStale, FLOOR_APP, naiveScenario, staticScenario } from "./floor.ts";
import { measureApi, type Scenario } from "./load.ts";
import { apiScenarios } from "./scenarios.ts";
import { seed } from "./seed.ts";
import { spawn } from "node:child_process";
import { startServer } from "./server.ts";
import { buildIfStale } from "../scripts/next-build.ts";

const connections = Number(process.env.AB_CONNECTIONS ?? 8);
const seconds = Number(process.env.AB_SECONDS ?? 4);

buildIfStale();
buildFloorIfStale();
for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const seeded = await seed();
    await target.close();
    const env = serverEnv(target);
    const rows: string[] = [];
    const run = async (dir: string | undefined, scenarios: Scenario[]) => {
      const server = await startServer(env, dir ? { dir, health: "/static" } : {});
      const cpu = { app: { group: server.group }, dbPids: target.dbPids };
      try {
        for (const scenario of scenarios) await measureApi(server.url, cpu, scenario, 2, connections);
        for (const scenario of scenarios) {
          const m = await measureApi(server.url, cpu, scenario, seconds, connections);
          rows.push(
            `${m.label.padEnd(44)} ${String(m.requestsPerSecond).padStart(7)} req/s  app ${m.cpuMsPerRequest.app} ms/req  db ${m.cpuMsPerRequest.db}  (${m.unexpected} unexpected)`,
          );
        }
      } finally {
        await server.stop();
      }
    };
    // The same handler without Next (scripts/serve-rest.ts on node:http): what Next itself adds.
    const plain = spawn(process.execPath, ["scripts/serve-rest.ts"], {
      detached: true,
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        ...env,
        PORT: "0",
        WEBHOOKS_WORKER: "off",
        CATALOG_WORKER: "off",
        UPKEEP_TIMER: "off",
        NODE_ENV: "production",
      },
    });
    const url = await new Promise<string>((resolve, reject) => {
      plain.stdout?.on("data", (chunk: Buffer) => {
        const found = /listening (\S+)/.exec(chunk.toString());
        if (found?.[1]) resolve(found[1]);
      });
      plain.once("exit", (code) => reject(new Error(`serve-rest exited (${code})`)));
    });
    try {
      const cpu = { app: { group: plain.pid ?? 0 }, dbPids: target.dbPids };
      const scenarios = apiScenarios(seeded).scenarios.slice(0, 3);
      for (const scenario of scenarios) await measureApi(url, cpu, scenario, 2, connections);
      for (const scenario of scenarios) {
        const m = await measureApi(url, cpu, scenario, seconds, connections);
        rows.push(
          `serve-rest ${m.label.padEnd(33)} ${String(m.requestsPerSecond).padStart(7)} req/s  app ${m.cpuMsPerRequest.app} ms/req  db ${m.cpuMsPerRequest.db}`,
        );
      }
    } finally {
      const exited = new Promise((resolve) => plain.once("exit", resolve));
      if (plain.pid) process.kill(-plain.pid, "SIGTERM");
      await exited;
    }
    await run(FLOOR_APP, name === "pglite" ? [staticScenario] : [staticScenario, naiveScenario(seeded.members)]);
    await run(undefined, apiScenarios(seeded).scenarios.slice(0, 3));
    console.log(`${name}, ${connections} connections, ${seconds} s:\n${rows.join("\n")}`);
  } finally {
    await target.drop();
  }
}
