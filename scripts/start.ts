// npm start: builds when the sources are newer than the last build, then serves with `next start`.
import { spawnSync } from "node:child_process";
import { buildIfStale, nextBin, nextEnv } from "./next-build.ts";

try {
  buildIfStale();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const port = process.env.PORT ?? "3000";
const server = spawnSync(nextBin, ["start", "-p", port, ...process.argv.slice(2)], { stdio: "inherit", env: nextEnv() });
process.exit(server.status ?? 0);
