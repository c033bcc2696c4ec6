// npm test: the whole suite — vitest on embedded PGlite, vitest on the Postgres server (with Redis),
// then the browser tests — and one closing line "N passed, N failed" for CI.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { skippedEverywhere } from "./skipped-tests.ts";
import { serverPass } from "./test-server.ts";

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
}
const tallies: Tally[] = [];

function vitest(name: string, env: Record<string, string>): void {
  const out = path.join(reports, `vitest-${name}.json`);
  fs.rmSync(out, { force: true });
  console.log(`\n=== vitest on ${name} ===`);
  const run = spawnSync(
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...onlyArgs],
    { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } },
  );
  const report = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, "utf8")) as Record<string, number>) : null;
  const passed = report?.numPassedTests ?? 0;
  const failed = (report?.numFailedTests ?? 0) + (report ? 0 : 1);
  tallies.push({ name, passed, failed, ok: run.status === 0 && failed === 0 && passed > 0 });
}

vitest("pglite", { DATABASE_URL: "", REDIS_URL: "", PGLITE_DIR: "memory://" });

const server = await serverPass();
if (server.kind === "ready") {
  try {
    vitest("postgres", { DATABASE_URL: server.url, REDIS_URL: server.redisUrl, PGLITE_DIR: "" });
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

// The browser suite (scripts/e2e.ts: next build, then Playwright on Debian's Chromium) runs once the
// API suites pass; a run narrowed to some vitest files skips it.
if (onlyArgs.length === 0 && tallies.every((t) => t.ok)) {
  const out = path.join(reports, "playwright.json");
  console.log("\n=== e2e (next build + playwright) ===");
  const run = spawnSync(process.execPath, [path.join(root, "scripts", "e2e.ts")], { stdio: "inherit" });
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
  tallies.push({ name: "playwright", passed, failed, ok: run.status === 0 && failed === 0 && passed > 0 });
} else if (onlyArgs.length === 0) {
  console.warn("\n!!! e2e not run: the vitest passes failed first.");
}

for (const t of tallies) console.log(`${t.name}: ${t.passed} passed, ${t.failed} failed`);
const passed = tallies.reduce((n, t) => n + t.passed, 0);
const failed = tallies.reduce((n, t) => n + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(tallies.every((t) => t.ok) ? 0 : 1);
