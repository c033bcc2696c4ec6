// npm test: the whole suite — vitest on embedded PGlite, the files that can touch a database again
// on the Postgres server (with Redis), then the browser tests — and one closing line
// "N passed, N failed" for CI. Every stage runs even when an earlier one failed, and each reports.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { skippedEverywhere } from "./skipped-tests.ts";
import { databaseTestFiles, selectedBy, testFiles } from "./test-files.ts";
import { serverPass } from "./test-server.ts";

const started = Date.now();
const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const reports = path.join(root, "reports");
fs.mkdirSync(reports, { recursive: true });
const onlyArgs = process.argv.slice(2);

interface Tally {
  name: string;
  passed: number;
  failed: number;
  ok: boolean;
  /** Wall-clock seconds of the stage, for the README's figures. */
  seconds?: number;
}
const tallies: Tally[] = [];

function vitest(name: string, env: Record<string, string>, files: readonly string[]): void {
  const out = path.join(reports, `vitest-${name}.json`);
  fs.rmSync(out, { force: true });
  console.log(`\n=== vitest on ${name} ===`);
  const started = Date.now();
  const run = spawnSync(
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...files],
    { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } },
  );
  const report = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, "utf8")) as Record<string, number>) : null;
  const passed = report?.numPassedTests ?? 0;
  const failed = (report?.numFailedTests ?? 0) + (report ? 0 : 1);
  const seconds = Math.round((Date.now() - started) / 1000);
  tallies.push({ name, passed, failed, ok: run.status === 0 && failed === 0 && passed > 0, seconds });
}

vitest("pglite", { DATABASE_URL: "", REDIS_URL: "", PGLITE_DIR: "memory://" }, onlyArgs);

// The browser suite's build (only when a source changed since the last, scripts/next-build.ts) runs
// beside the Postgres pass, whose time goes more to waiting on the server than to this machine's
// cores; its output goes to reports/build.log and is shown when the browser suite starts.
const buildLog = path.join(reports, "build.log");
const buildStarted = Date.now();
const build = onlyArgs.length === 0 ? buildInBackground(buildLog) : null;

// A file that touches no database has nothing more to prove on the server: it ran once, above.
const all = testFiles(root);
const selected = selectedBy(all, onlyArgs, root);
const databaseFiles = databaseTestFiles(selected, root);
console.log(
  `\n${databaseFiles.length} of ${selected.length} test files can touch a database or Redis (scripts/test-files.ts): the server pass runs these.`,
);
// A skipped pass leaves no report behind, so an earlier run's cannot count for this one below.
fs.rmSync(path.join(reports, "vitest-postgres.json"), { force: true });
const server = databaseFiles.length > 0 ? await serverPass() : ({ kind: "none" } as const);
if (server.kind === "none") {
  console.log("No selected file touches a database: no server pass.");
} else if (server.kind === "ready") {
  try {
    vitest("postgres", { DATABASE_URL: server.url, REDIS_URL: server.redisUrl, PGLITE_DIR: "" }, databaseFiles);
  } finally {
    await server.drop();
  }
} else if (server.kind === "skipped") {
  console.warn(`\n!!! SKIPPED the Postgres server pass: ${server.why}`);
  console.warn("!!! CI never skips it. Start Postgres or set TEST_DATABASE_URL to run it here.\n");
} else {
  console.error(`\n=== Postgres server pass FAILED to start: ${server.why}`);
  tallies.push({ name: "postgres", passed: 0, failed: 1, ok: false });
}

// In CI every test runs: one skipped in a pass must have passed in another (scripts/skipped-tests.ts).
const vitestReports = ["pglite", "postgres"]
  .map((name) => path.join(reports, `vitest-${name}.json`))
  .filter((file) => fs.existsSync(file))
  .map((file) => JSON.parse(fs.readFileSync(file, "utf8")));
const neverRun = skippedEverywhere(vitestReports);
if (neverRun.length && process.env.CI) {
  console.error(`\n=== ${neverRun.length} test(s) skipped in every pass:\n${neverRun.join("\n")}`);
  tallies.push({ name: "skipped", passed: 0, failed: neverRun.length, ok: false });
} else if (neverRun.length) {
  console.warn(`\n!!! ${neverRun.length} test(s) skipped in every pass (CI fails on this):\n${neverRun.join("\n")}`);
}

// The browser suite (scripts/e2e.ts: the build `npm start` made, or a new one if a source changed,
// then Playwright on Debian's Chromium) runs whatever the API suites said, so both results show; a
// run narrowed to some vitest files skips it.
if (onlyArgs.length === 0) {
  const out = path.join(reports, "playwright.json");
  // An earlier run's report must not count when this run's build fails before Playwright starts.
  fs.rmSync(out, { force: true });
  const e2eStarted = Date.now();
  console.log("\n=== e2e (the build, unless fresh, then playwright) ===");
  const built = await build;
  const buildSeconds = Math.round((Date.now() - buildStarted) / 1000);
  process.stdout.write(fs.existsSync(buildLog) ? fs.readFileSync(buildLog, "utf8") : "");
  console.log(`(the build ran beside the Postgres pass; done ${buildSeconds} s after it started)`);
  const run =
    built === 0
      ? spawnSync(process.execPath, [path.join(root, "scripts", "e2e.ts"), "--no-build"], { stdio: "inherit" })
      : { status: 1 };
  const stats = fs.existsSync(out)
    ? (
        JSON.parse(fs.readFileSync(out, "utf8")) as {
          stats: { expected: number; unexpected: number; flaky: number; skipped: number };
        }
      ).stats
    : null;
  const passed = (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  // A skipped spec is a failure in CI (e2e/support.ts skips only outside CI).
  const failed = stats ? stats.unexpected + (process.env.CI ? stats.skipped : 0) : 1;
  const seconds = Math.round((Date.now() - e2eStarted) / 1000);
  tallies.push({ name: "playwright", passed, failed, ok: run.status === 0 && failed === 0 && passed > 0, seconds });
}

const elapsed = Math.round((Date.now() - started) / 1000);
console.log(`\nnpm test took ${Math.floor(elapsed / 60)} min ${elapsed % 60} s`);
for (const t of tallies) {
  console.log(`${t.name}: ${t.passed} passed, ${t.failed} failed${t.seconds === undefined ? "" : ` (${t.seconds} s)`}`);
}
const passed = tallies.reduce((n, t) => n + t.passed, 0);
const failed = tallies.reduce((n, t) => n + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(tallies.every((t) => t.ok) ? 0 : 1);

/** Starts scripts/e2e.ts --build-only with its output in a file; resolves to its exit code. */
function buildInBackground(log: string): Promise<number> {
  const out = fs.openSync(log, "w");
  const child = spawn(process.execPath, [path.join(root, "scripts", "e2e.ts"), "--build-only"], {
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("close", (status) => resolve(status ?? 1));
  });
}
