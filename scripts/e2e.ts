// npm run e2e: the browser suite. Installs Debian's Chromium headless shell when it is missing (never Playwright's
// own download), builds when a source is newer than the last build (not at all with --no-build),
// starts from an empty embedded database, and writes reports/playwright.json for the closing tally
// of `npm test`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildWithProgress } from "./next-build.ts";

const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
// playwright.config.ts's default; its Debian package is the path's last part.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
const args = process.argv.slice(2);

function run(command: string, commandArgs: string[], extraEnv: Record<string, string> = {}): number {
  const result = spawnSync(command, commandArgs, { stdio: "inherit", env: { ...env, ...extraEnv } });
  return result.status ?? 1;
}

if (!args.includes("--no-build")) {
  // The build npm start made when nothing changed since (scripts/next-build.ts): the Dockerfile's,
  // standalone with server.ts traced in, which e2e/docker-run-stage.spec.ts replays.
  console.log("\n=== build ===");
  try {
    const outcome = await buildWithProgress((line) => console.log(`build: ${line}`));
    if (outcome === "reused") console.log("build: up to date, reused.");
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

// npm test builds beside its PGlite pass (scripts/test.ts), then runs the suite with --no-build.
if (args.includes("--build-only")) process.exit(0);

let browser = chromium;
if (!fs.existsSync(chromium)) {
  const pkg = path.basename(chromium);
  console.log(`${chromium} is missing; installing Debian's ${pkg} package…`);
  // As root call apt-get directly; otherwise through sudo.
  const apt = (...aptArgs: string[]) =>
    process.getuid?.() === 0 ? run("apt-get", aptArgs) : run("sudo", ["apt-get", ...aptArgs]);
  if (apt("update", "-q") !== 0 || apt("install", "-y", "-q", pkg) !== 0) {
    // A machine set up before the headless shell was the default may have only the full browser.
    if (!process.env.CHROMIUM_PATH && fs.existsSync("/usr/bin/chromium")) {
      console.warn(`!!! Could not install ${pkg} from Debian: running the suite in /usr/bin/chromium instead.`);
      browser = "/usr/bin/chromium";
    } else {
      console.error(`Could not install ${pkg} from Debian.`);
      process.exit(1);
    }
  }
}

// A fresh database every run, so the suite never depends on what an earlier run left behind.
fs.rmSync(path.join(root, ".data", "pglite-e2e"), { recursive: true, force: true });
fs.rmSync(path.join(root, "reports", "screenshots"), { recursive: true, force: true });
fs.mkdirSync(path.join(root, "reports", "screenshots"), { recursive: true });
const report = path.join(root, "reports", "playwright.json");
fs.rmSync(report, { force: true });

console.log("\n=== playwright ===");
const status = run(
  bin("playwright"),
  ["test", "--reporter=list,json", ...args.filter((arg) => arg !== "--no-build" && arg !== "--build-only")],
  {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    CHROMIUM_PATH: browser,
  },
);
process.exit(status);
