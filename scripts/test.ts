// npm test: the whole suite — vitest on embedded PGlite, the files that can touch a database again
// on the Postgres server (with Redis), and the browser tests beside them — and one closing line
// "N passed, N failed" for CI. Every stage runs even when another failed, and each reports.
//
// The machine is the limit, not any one stage: each stage alone keeps 1.4 to 1.8 of its 2 cores busy
// and the browser suite, on one worker, is the longest. So the browser suite starts as soon as its
// build is there (at once after `npm start`, which made it) and runs beside the two vitest passes,
// which run one after the other. A clean clone (CI) builds first, beside the PGlite pass.
import { spawn } from "node:child_process";
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

async function vitest(name: string, env: Record<string, string>, files: readonly string[]): Promise<void> {
  const out = path.join(reports, `vitest-${name}.json`);
  fs.rmSync(out, { force: true });
  console.log(`\n=== vitest on ${name} ===`);
  const started = Date.now();
  const status = await exitOf(
    spawn(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...files], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    }),
  );
  const report = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, "utf8")) as Record<string, number>) : null;
  const passed = report?.numPassedTests ?? 0;
  const failed = (report?.numFailedTests ?? 0) + (report ? 0 : 1);
  const seconds = Math.round((Date.now() - started) / 1000);
  tallies.push({ name, passed, failed, ok: status === 0 && failed === 0 && passed > 0, seconds });
}

// The browser suite: its build (only when a source changed since the last, scripts/next-build.ts)
// writes to reports/build.log, then Playwright (scripts/e2e.ts) to reports/playwright.log; both are
// printed once the vitest passes are done, so the passes' output stays readable. A run narrowed to
// some vitest files skips it.
const browser = onlyArgs.length === 0 ? browserSuite() : null;

await vitest("pglite", { DATABASE_URL: "", REDIS_URL: "", PGLITE_DIR: "memory://" }, onlyArgs);

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
    await vitest("postgres", { DATABASE_URL: server.url, REDIS_URL: server.redisUrl, PGLITE_DIR: "" }, databaseFiles);
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

if (browser) {
  console.log("\n=== e2e (the build, unless fresh, then playwright), beside the vitest passes ===");
  const tally = await browser;
  for (const log of ["build.log", "playwright.log"]) {
    const file = path.join(reports, log);
    if (fs.existsSync(file)) process.stdout.write(fs.readFileSync(file, "utf8"));
  }
  tallies.push(tally);
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

/** The build when stale, then Playwright, each with its output in a file; resolves to Playwright's tally (seconds from the start: the build's included). */
async function browserSuite(): Promise<Tally> {
  const started = Date.now();
  const out = path.join(reports, "playwright.json");
  // An earlier run's report must not count when this run's build fails before Playwright starts.
  fs.rmSync(out, { force: true });
  const e2e = (arg: string, log: string) => {
    const fd = fs.openSync(path.join(reports, log), "w");
    const child = spawn(process.execPath, [path.join(root, "scripts", "e2e.ts"), arg], { stdio: ["ignore", fd, fd] });
    fs.closeSync(fd);
    return exitOf(child);
  };
  const built = await e2e("--build-only", "build.log");
  const status = built === 0 ? await e2e("--no-build", "playwright.log") : 1;
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
  const seconds = Math.round((Date.now() - started) / 1000);
  return { name: "playwright", passed, failed, ok: status === 0 && failed === 0 && passed > 0, seconds };
}

/** A child's exit code (1 when it could not start or was killed). */
function exitOf(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("close", (status) => resolve(status ?? 1));
  });
}
