// npm start: builds when the sources are newer than the last build, then serves with `next start`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
const nextBin = path.join(root, "node_modules", ".bin", "next");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const SOURCES = ["app", "lib", "registry", "public", "next.config.ts", "package.json", "tsconfig.json"];

function newestMtime(entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const buildId = path.join(root, ".next", "BUILD_ID");
const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (builtAt < Math.max(...SOURCES.map(newestMtime))) {
  console.log(builtAt ? "Sources changed since the last build; rebuilding…" : "No build yet; building…");
  const build = spawnSync(nextBin, ["build"], { stdio: "inherit", env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT ?? "3000";
const server = spawnSync(nextBin, ["start", "-p", port, ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(server.status ?? 0);
