// The production build, made only when a source is newer than it (npm start and the benchmark).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
export const nextBin = path.join(root, "node_modules", ".bin", "next");
/** The environment for `next`, read when called: the profiler sets NEXT_PROFILE_BUILD after this module loads. */
export const nextEnv = () => ({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" });

/** Everything the build reads; migrations are read at run time and need no rebuild. */
const SOURCES = [
  "app",
  "components",
  "lib",
  "registry",
  "public",
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

export function buildIfStale(): "reused" | "built" {
  const distDir = process.env.NEXT_PROFILE_BUILD === "1" ? ".next-profile" : ".next"; // see next.config.ts
  const buildId = path.join(root, distDir, "BUILD_ID");
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (builtAt >= Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))))) return "reused";
  console.log(builtAt ? "Sources changed since the last build; rebuilding…" : "No build yet; building…");
  const build = spawnSync(nextBin, ["build"], { stdio: ["ignore", "inherit", "inherit"], env: nextEnv() });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status})`);
  return "built";
}
