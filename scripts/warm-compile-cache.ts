// Fills Node's compile cache (NODE_COMPILE_CACHE) with one start of the server, for the Docker image: a
// new container then loads its ~1,400 modules as compiled code instead of stripping and compiling each
// again, about 0.3 s of every first start (bench/results/2026-11-28-cold-start.md). Run from the folder
// that holds server.ts. Every process here runs with the server's flags: V8 takes a compiled module only
// from a process whose flags match the one that compiled it.
//   NODE_DISABLE_COMPILE_CACHE=1 NODE_COMPILE_CACHE=/app/.compile-cache \
//     node warm-compile-cache.ts server.ts [module …]
// The server runs on loopback with the embedded database, uploads and throw-away secrets in a folder removed
// afterwards, until it has answered the health check, an API request and a page (which loads Next's build),
// then stops as on SIGTERM, which writes the cache. The modules named after the entry are then imported in a
// process of their own: what the embedded run never loads, such as the Postgres driver the image runs on.
// Fails when a request is not answered as expected, when the cache stays empty, and when the start left any
// file in this folder outside the cache: an image must carry no data or secret of a run.
// NODE_DISABLE_COMPILE_CACHE keeps this script's own modules out of the cache (the children run without it).
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
const [entry = "server.ts", ...modules] = process.argv.slice(2);
const port = Number(process.env.WARM_PORT) || 3999;
// A build on an emulated platform is slow: the wait is a setting.
const timeoutMs = (Number(process.env.WARM_TIMEOUT_SECONDS) || 180) * 1000;
const origin = `http://127.0.0.1:${port}`;
/** What the server is asked, with the status each must answer. */
const REQUESTS: [string, number][] = [
  ["/api/v1/health", 200],
  ["/api/v1/collections", 401],
  ["/sign-in", 200],
];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "warm-"));
const throwAway = () => randomBytes(32).toString("base64url");
const cacheDir = path.resolve(cache);
/** Every file under this folder but the cache: the start must leave them as it found them. */
const files = () =>
  fs
    .readdirSync(".", { recursive: true })
    .map(String)
    .filter((file) => !path.resolve(file).startsWith(cacheDir))
    .sort();
const before = new Set(files());
const { NODE_DISABLE_COMPILE_CACHE: _, ...env } = process.env;

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
  env: {
    ...env,
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
const serverExit = exitOf(server);

function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

const running = () => server.exitCode === null && server.signalCode === null;

async function answer(url: string, deadline: number): Promise<number> {
  for (;;) {
    try {
      return (await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) })).status;
    } catch (error) {
      if (Date.now() > deadline || !running()) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

let failed = false;
try {
  const deadline = Date.now() + timeoutMs;
  for (const [route, status] of REQUESTS) {
    const got = await answer(origin + route, deadline);
    if (got !== status) throw new Error(`${route} answered ${got}, not ${status}`);
  }
} catch (error) {
  console.error("Warming the compile cache failed:", error);
  failed = true;
}
server.kill("SIGTERM");
// server.ts stops within 10 s of SIGTERM; a server that does not is stopped, and the warm-up fails.
const killer = setTimeout(() => server.kill("SIGKILL"), 20_000);
let code = await serverExit;
clearTimeout(killer);
fs.rmSync(scratch, { recursive: true, force: true });
const left = files().filter((file) => !before.has(file));

if (!failed && code === 0 && !left.length && modules.length) {
  const load =
    'import { pathToFileURL } from "node:url"; for (const file of process.argv.slice(1)) await import(pathToFileURL(file).href);';
  const loader = spawn(process.execPath, [...SERVER_NODE_FLAGS, "--input-type=module", "-e", load, ...modules], {
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  code = await exitOf(loader);
}

const cached = fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true }).length : 0;
if (failed || code !== 0 || cached === 0 || left.length) {
  console.error(
    `Warming failed: exit ${code}; the compile cache holds ${cached} entries; new here: ${left.join(", ") || "nothing"}.`,
  );
  process.exit(1);
}
console.log(`compile cache warmed: ${cached} entries in ${cache}`);
