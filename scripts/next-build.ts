// The production build, made only when a source is newer than it (npm start, the browser tests and
// the benchmark share it). It is the Dockerfile's build: Next's standalone output plus server.ts
// traced into it (scripts/trace-server.ts), so `npm start` then `npm test` build once, and the
// browser tests replay the image's run stage on the very build they test.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
export const nextBin = path.join(root, "node_modules", ".bin", "next");
/** The environment for `next`, read when called: the profiler sets NEXT_PROFILE_BUILD after this module loads. */
export const nextEnv = () => ({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" });

/** What a first build costs on the 2-core machine this project is developed on, to say so up front. */
export const FIRST_BUILD_ESTIMATE = "1 to 3 minutes on 2 idle cores";

/** Everything the build reads; migrations are read at run time and need no rebuild. */
const SOURCES = [
  "app",
  "components",
  "lib",
  "registry",
  "public",
  "server.ts",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package.json",
  "tsconfig.json",
];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const profile = () => process.env.NEXT_PROFILE_BUILD === "1"; // its own unminified folder, see next.config.ts
const distDir = () => path.join(root, profile() ? ".next-profile" : ".next");
/** Written once server.ts is traced into .next/standalone: a build that stopped before it is no build. */
const tracedStamp = () => path.join(distDir(), "standalone-traced");

/** Why a build is needed, or null when the last one is newer than every source. */
export function staleness(): string | null {
  const builtAt = fs.existsSync(path.join(distDir(), "BUILD_ID"))
    ? fs.statSync(path.join(distDir(), "BUILD_ID")).mtimeMs
    : 0;
  if (!builtAt) return "no build yet";
  if (!profile() && !fs.existsSync(tracedStamp())) return "the last build did not finish";
  if (builtAt < Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source)))))
    return "sources changed since the last build";
  return null;
}

function buildArgs(): { env: NodeJS.ProcessEnv } {
  fs.rmSync(tracedStamp(), { force: true });
  return { env: profile() ? nextEnv() : { ...nextEnv(), NEXT_OUTPUT: "standalone" } };
}

const ANOTHER_BUILD = "Another next build process";

function afterBuild(): void {
  if (profile()) return;
  const trace = spawnSync(process.execPath, [path.join(root, "scripts", "trace-server.ts")], { stdio: "inherit" });
  if (trace.status !== 0) throw new Error(`tracing server.ts into .next/standalone failed (exit ${trace.status})`);
  fs.writeFileSync(tracedStamp(), `${new Date().toISOString()}\n`);
}

/** Builds when stale, blocking (the benchmark's scripts). */
export function buildIfStale(): "reused" | "built" {
  const why = staleness();
  if (!why) return "reused";
  console.log(`${why}; building…`);
  const build = spawnSync(nextBin, ["build"], { stdio: ["ignore", "inherit", "inherit"], ...buildArgs() });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status})`);
  afterBuild();
  return "built";
}

/**
 * Builds when stale, saying why and how long it takes, with a line every 30 s while Next works.
 * Another build in the same tree makes Next stop at once: waits and tries again.
 */
export async function buildWithProgress(log: (line: string) => void = console.log): Promise<"reused" | "built"> {
  const why = staleness();
  if (!why) return "reused";
  log(`${why}: building; Next prints its stages…`);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const ticker = setInterval(() => log(`… still building: ${seconds()} s so far`), 30_000);
  try {
    for (let attempt = 1; ; attempt++) {
      const { status, output } = await runNextBuild();
      if (status === 0) break;
      if (!output.includes(ANOTHER_BUILD) || attempt === 8) throw new Error(`next build failed (exit ${status})`);
      log("another build is running in this folder; trying again in 15 s…");
      await new Promise((resolve) => setTimeout(resolve, 15_000));
    }
    afterBuild();
  } finally {
    clearInterval(ticker);
  }
  log(`built in ${seconds()} s`);
  return "built";
}

function runNextBuild(): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(nextBin, ["build"], { stdio: ["ignore", "pipe", "pipe"], ...buildArgs() });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
  });
}
