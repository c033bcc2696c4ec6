import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = process.cwd();
const nextBin = path.join(root, "node_modules", ".bin", "next");
const SOURCES = ["app", "lib", "registry", "public", "next.config.ts", "package.json", "tsconfig.json"];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** The production build the API is measured on; rebuilt only when a source is newer (as npm start does). */
export function buildIfStale(): "reused" | "built" {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (builtAt >= Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))))) return "reused";
  console.log("Building (next build)…");
  const build = spawnSync(nextBin, ["build"], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status})`);
  return "built";
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface RunningServer {
  url: string;
  /** Process group of `next start` and its workers, for their CPU. */
  group: number;
  /** Answers once the server has worked off what it had queued (see run.ts); throws if it died. */
  drain: () => Promise<void>;
  stop: () => Promise<void>;
}

/** `next start` in its own process group, so stopping it ends its workers too. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(nextBin, ["start", "-H", "127.0.0.1", "-p", String(port)], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...env },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  const drain = async () => {
    for (let attempt = 1; ; attempt++) {
      // A fresh connection each time: a pooled one the server has since closed fails with ECONNRESET.
      const ok = await fetch(`${url}/api/v1/health`, { headers: { connection: "close" } }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (child.exitCode !== null || attempt === 5) throw new Error(`the server stopped answering: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  process.once("exit", () => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}): ${stderr}`);
    // Health opens the database (migrations included), so the first measured request does not.
    const ok = await fetch(`${url}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && child.pid) return { url, group: child.pid, drain, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`next start did not answer within 60 s: ${stderr}`);
}
