// npm run bench:profile: the server (server.ts) under --cpu-prof while wrk sends one request kind (GET
// /collections unless BENCH_PROFILE_ROUTE names another), on the Postgres server or PGlite
// (BENCH_PROFILE_DB); writes the profile and prints where the server's CPU went (profile-summary.ts).
// BENCH_PROFILE_UNMINIFIED=1 profiles an unminified build (.next-profile), so functions keep their names.
// BENCH_PROFILE_NEXT_START=1 profiles `next start` of this build (the generated route files through Next's
// router, issue 34's target 3) instead of server.ts.
import fs from "node:fs";
import path from "node:path";
import { createTarget, serverEnv } from "./databases.ts";
import { measureApi } from "./load.ts";
import { summarize } from "./profile-summary.ts";
import { buildFloorIfStale, FLOOR_APP, naiveScenario, staticScenario } from "./floor.ts";
import { apiScenarios } from "./scenarios.ts";
import { seed } from "./seed.ts";
import { seedVerbRows, verbScenarios } from "./verbs.ts";
import { startServer } from "./server.ts";
import { warmUntilSteady } from "./warm-up.ts";
import { buildIfStale } from "../scripts/next-build.ts";

const dir = path.resolve(process.env.BENCH_PROFILE_DIR || ".data/bench-profile");
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
// BENCH_PROFILE_ROUTE=naive profiles the floor app's naive route, and =floor its static route (the
// framework's own cost a request, which target 3 compares the route files with); any other value
// picks the API row whose label contains it ("POST /items", "search", "{id}"), or a verb row whose
// label holds each of its words ("search MCP", "create invoke").
const route = process.env.BENCH_PROFILE_ROUTE || "GET /collections (50";
const naive = route === "naive";
const floor = route === "floor";
const floorApp = naive || floor;
const nextStart = process.env.BENCH_PROFILE_NEXT_START === "1";
if (process.env.BENCH_PROFILE_UNMINIFIED === "1") process.env.NEXT_PROFILE_BUILD = "1";
if (floorApp) buildFloorIfStale();
else buildIfStale();
let measuredFrom = 0;
let measuredTo = 0;
let stoppedAt = 0;
const target = await createTarget(process.env.BENCH_PROFILE_DB || "postgres");
try {
  await target.open();
  const seeded = await seed();
  const verbRows = floorApp ? [] : verbScenarios(seeded, await seedVerbRows(seeded, 300), [route]);
  await target.close();
  const server = await startServer(
    {
      ...serverEnv(target),
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
    },
    floorApp
      ? { dir: FLOOR_APP, health: "/static", graceMs: 120_000 }
      : { ...(nextStart ? { dir: "." } : {}), graceMs: 120_000 },
  );
  const cpu = { app: { group: server.group }, dbPids: target.dbPids };
  const scenario = floor
    ? staticScenario
    : naive
      ? naiveScenario(seeded.members)
      : (apiScenarios(seeded).scenarios.find((s) => s.label.includes(route)) ?? verbRows[0]);
  if (!scenario) throw new Error(`BENCH_PROFILE_ROUTE=${route} names no row of the bench`);
  try {
    await warmUntilSteady((seconds) => measureApi(server.url, cpu, scenario, seconds));
    measuredFrom = Date.now();
    const m = await measureApi(server.url, cpu, scenario);
    measuredTo = Date.now();
    const cpuMs = m.cpuMsPerRequest;
    console.log(
      `${m.label}: ${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, CPU ${cpuMs.total} ms/req (db ${cpuMs.db})`,
    );
  } finally {
    await server.stop();
    stoppedAt = Date.now();
  }
} finally {
  await target.drop();
}
// Files are CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile, one per thread. The server is the
// process with the most samples (next start may fork a helper); each of its threads is summarised
// (the main thread, and PGlite's worker thread on the embedded database).
const profiles = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
const pidOf = (file: string) => file.split(".")[3] ?? "";
const sizeOf = (pid: string) =>
  profiles.filter((f) => pidOf(f) === pid).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
const server = [...new Set(profiles.map(pidOf))].sort((a, b) => sizeOf(b) - sizeOf(a))[0];
if (!server) throw new Error(`no profile written in ${dir}`);
// Only the measured span: start-up and warm-up (module compilation, JIT) are left out.
const window: [number, number] = [stoppedAt - measuredFrom, stoppedAt - measuredTo];
for (const file of profiles.filter((f) => pidOf(f) === server).sort()) {
  const thread = file.split(".")[4] === "0" ? "main thread" : `thread ${file.split(".")[4]}`;
  console.log(
    `\n${path.join(dir, file)}, ${thread} (the measured ${Math.round((measuredTo - measuredFrom) / 1000)} s)`,
  );
  console.log(summarize(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")), window));
}
process.exit(0);
