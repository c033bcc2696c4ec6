// Fills Node's compile cache (NODE_COMPILE_CACHE) with one start of the server, for the Docker image: a
// new container then loads its ~1,400 modules as compiled code instead of stripping and compiling each
// again, about 0.4 s of every first start (bench/results/2026-11-28-cold-start.md). Run from the folder
// that holds server.ts, with the flags the server runs with: V8 takes a compiled module only from a
// process whose flags match the one that compiled it.
//   NODE_COMPILE_CACHE=/app/.compile-cache node warm-compile-cache.ts [server.ts]
// The server runs on loopback with the embedded database, uploads and throw-away secrets in a folder removed
// afterwards, until it has answered the health check, an API request and a page (which loads Next's build),
// then stops as on SIGTERM, which writes the cache. Fails when the cache stays empty, and when the start left
// anything in ./.data: an image must carry no data or secret of a run.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "./server-runtime.ts";

const cache = process.env.NODE_COMPILE_CACHE;
if (!cache) {
  console.error("NODE_COMPILE_CACHE is not set: name the folder the image's server reads the cache from.");
  process.exit(1);
}
const entry = process.argv[2] ?? "server.ts";
const port = Number(process.env.WARM_PORT) || 3999;
const origin = `http://127.0.0.1:${port}`;
/** What the server is asked, with the status each must answer. */
const REQUESTS: [string, number][] = [
  ["/api/v1/health", 200],
  ["/api/v1/collections", 401],
  ["/sign-in", 200],
];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "warm-"));
const throwAway = () => randomBytes(32).toString("base64url");
/** Every file under ./.data, which the start must leave as it found it. */
const dataFiles = () => (fs.existsSync(".data") ? fs.readdirSync(".data", { recursive: true }).map(String).sort() : []);
const dataBefore = dataFiles();

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: origin,
    // The image refuses the embedded database at run time; this one start uses it and throws it away.
    REQUIRE_SERVER_DATABASE: "",
    DATABASE_URL: "",
    PGLITE_DIR: path.join(scratch, "pglite"),
    UPLOADS_DIR: path.join(scratch, "uploads"),
    UPLOAD_SIGNING_SECRET: throwAway(),
    WEBHOOK_SECRETS_KEY: throwAway(),
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));

async function answer(url: string, deadline: number): Promise<number> {
  for (;;) {
    try {
      return (await fetch(url, { signal: AbortSignal.timeout(30_000) })).status;
    } catch (error) {
      if (Date.now() > deadline || server.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

let failed = false;
try {
  const deadline = Date.now() + 120_000;
  for (const [route, status] of REQUESTS) {
    const got = await answer(origin + route, deadline);
    if (got !== status) throw new Error(`${route} answered ${got}, not ${status}`);
  }
} catch (error) {
  console.error("Warming the compile cache failed:", error);
  failed = true;
}
server.kill("SIGTERM");
const code = await exited;
fs.rmSync(scratch, { recursive: true, force: true });
const files = fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true }).length : 0;
const left = dataFiles().filter((file) => !dataBefore.includes(file));
if (failed || code !== 0 || files === 0 || left.length) {
  console.error(
    `The server exited with ${code}; the compile cache holds ${files} entries; new in .data: ${left.join(", ") || "nothing"}.`,
  );
  process.exit(1);
}
console.log(`compile cache warmed: ${files} entries in ${cache}`);
