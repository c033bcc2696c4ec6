import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "@/scripts/server-runtime";

const SCRIPT = path.join(process.cwd(), "scripts", "warm-compile-cache.ts");

/**
 * A stand-in for server.ts: reports how it was started, answers the warm-up's requests (the page with
 * SIGN_IN_STATUS), writes into ./.data when LEAVE_DATA is set, and exits 0 on SIGTERM as server.ts does.
 */
const STAND_IN = `
import fs from "node:fs";
import http from "node:http";
fs.writeFileSync(process.env.REPORT, JSON.stringify({ execArgv: process.execArgv, env: process.env }));
if (process.env.LEAVE_DATA) { fs.mkdirSync(".data", { recursive: true }); fs.writeFileSync(".data/secret", "x"); }
const statuses = { "/api/v1/health": 200, "/api/v1/collections": 401, "/sign-in": Number(process.env.SIGN_IN_STATUS) };
const server = http.createServer((req, res) => res.writeHead(statuses[req.url] ?? 404).end());
server.listen(Number(process.env.PORT), process.env.HOST);
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;
/** A module the embedded run would not load (the Postgres driver in the image): reports that it was imported. */
const EXTRA = `
import fs from "node:fs";
fs.writeFileSync(process.env.EXTRA_REPORT, JSON.stringify({ execArgv: process.execArgv }));
`;

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  folders = [];
});

/** Runs the script as the Dockerfile does, in a folder of its own; the cache and the reports lie outside it. */
async function warm(env: Record<string, string>) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "warm-test-"));
  folders.push(folder);
  const work = path.join(folder, "app");
  fs.mkdirSync(work);
  fs.writeFileSync(path.join(work, "stand-in.mjs"), STAND_IN);
  fs.writeFileSync(path.join(work, "extra.mjs"), EXTRA);
  const cache = path.join(folder, "cache");
  const report = path.join(folder, "report.json");
  const extraReport = path.join(folder, "extra.json");
  const child = spawn(process.execPath, [SCRIPT, "stand-in.mjs", "extra.mjs"], {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? "",
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      NODE_DISABLE_COMPILE_CACHE: "1",
      NODE_COMPILE_CACHE: cache,
      // Below Linux's ephemeral ports (32768 up), which the suite's own connections are given: a port
      // drawn from 20,000-40,000 was once a connection's (EADDRINUSE, CI at 04c4900).
      WARM_PORT: String(20_000 + Math.floor(Math.random() * 12_000)),
      REPORT: report,
      EXTRA_REPORT: extraReport,
      SIGN_IN_STATUS: "200",
      REQUIRE_SERVER_DATABASE: "1",
      ...env,
    } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const started = JSON.parse(fs.readFileSync(report, "utf8")) as {
    execArgv: string[];
    env: Record<string, string>;
  };
  const extra = fs.existsSync(extraReport)
    ? (JSON.parse(fs.readFileSync(extraReport, "utf8")) as { execArgv: string[] })
    : null;
  const cached = fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true }).length : 0;
  return { code, output, started, extra, cached };
}

describe("warming the image's compile cache (scripts/warm-compile-cache.ts)", () => {
  it("starts the server with its flags on a throw-away embedded database and secrets, and fills the cache", async () => {
    const { code, output, started, extra, cached } = await warm({});
    expect(code, output).toBe(0);
    // The script itself runs without the cache: every entry comes from the server and the module after it.
    expect(cached).toBeGreaterThan(0);
    expect(output).toContain(`compile cache warmed: ${cached} entries`);
    // V8 uses a compiled module only in a process whose flags match: the server's own, in both.
    expect(started.execArgv).toEqual([...SERVER_NODE_FLAGS]);
    expect(extra?.execArgv.slice(0, SERVER_NODE_FLAGS.length)).toEqual([...SERVER_NODE_FLAGS]);
    expect(started.env.NODE_DISABLE_COMPILE_CACHE).toBeUndefined();
    expect(started.env.REQUIRE_SERVER_DATABASE).toBe("");
    expect(started.env.DATABASE_URL).toBe("");
    expect(started.env.HOST).toBe("127.0.0.1");
    expect(started.env.UPLOAD_SIGNING_SECRET?.length).toBeGreaterThanOrEqual(32);
    expect(started.env.WEBHOOK_SECRETS_KEY?.length).toBeGreaterThanOrEqual(32);
    for (const dir of [started.env.PGLITE_DIR, started.env.UPLOADS_DIR]) {
      expect(dir?.startsWith(os.tmpdir())).toBe(true);
      expect(fs.existsSync(path.dirname(dir ?? ""))).toBe(false);
    }
  });

  it("fails the build when a request is not answered as expected", async () => {
    const { code, output, extra } = await warm({ SIGN_IN_STATUS: "500" });
    expect(code).toBe(1);
    expect(output).toContain("/sign-in answered 500, not 200");
    expect(extra).toBeNull();
  });

  it("fails the build when the start leaves a file in its folder, so no data or secret of the build ships", async () => {
    const { code, output, extra } = await warm({ LEAVE_DATA: "1" });
    expect(code).toBe(1);
    expect(output).toContain(`new here: .data, ${path.join(".data", "secret")}`);
    expect(extra).toBeNull();
  });
});
