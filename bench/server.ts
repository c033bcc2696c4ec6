import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { nextBin } from "../scripts/next-build.ts";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../scripts/server-runtime.ts";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  /** Process group of the server and its workers, for their CPU. */
  group: number;
  /** Answers once the server has worked off what it had queued (see run.ts); throws if it died. */
  drain: () => Promise<void>;
  stop: () => Promise<void>;
  /** Resident memory of the server's processes, in MB. */
  rssMb: () => number;
}

/** Sum of VmRSS over a process group, read from /proc. */
export function groupRssMb(group: number): number {
  let kb = 0;
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${name}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process ended
    }
  }
  return Math.round(kb / 1024);
}

/** The service as it runs in production (npm start, the Docker image). */
const SERVICE = path.resolve(import.meta.dirname, "..", "server.ts");

/** A spawned server process in its own group: its URL, when it was started, and how to end it. */
export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** performance.now() just before the spawn (cold start counts from here). */
  spawnedAt: number;
  stop: () => Promise<void>;
  /** The server's last stderr, for an error message. */
  stderr: () => string;
}

/**
 * Starts the process only: the service (server.ts), `next start` of a Next app (`dir`), or another
 * Node server (`script`, told its port by PORT), in its own process group so stopping it ends its
 * workers too.
 */
export async function spawnServer(
  env: Record<string, string>,
  options: { dir?: string; script?: string; graceMs?: number; nodeFlags?: readonly string[] } = {},
): Promise<SpawnedServer> {
  const port = await freePort();
  const [command, args] = options.dir
    ? [nextBin, ["start", options.dir, "-H", "127.0.0.1", "-p", String(port)]]
    : options.script
      ? [process.execPath, [options.script]]
      : [process.execPath, [...SERVER_NODE_FLAGS, ...(options.nodeFlags ?? []), SERVICE]];
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(command, args, {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    // The webhook row (bench/webhooks.ts) runs its own worker; the API rows measure requests alone.
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      WEBHOOKS_WORKER: "off",
      CATALOG_WORKER: "off",
      UPKEEP_TIMER: "off",
      ...(options.dir ? {} : { PORT: String(port), HOST: "127.0.0.1" }),
      // The service as production runs it (scripts/server-runtime.ts).
      ...(options.dir || options.script ? {} : SERVER_ENV),
      ...env,
    },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    // A profiled server writes its profile on exit, which takes seconds on a loaded machine (profile.ts gives it longer).
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), options.graceMs ?? 5000);
    await exited;
    clearTimeout(timer);
  };
  const killOnExit = () => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  };
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  return { url: `http://127.0.0.1:${port}`, child, spawnedAt, stop, stderr: () => stderr };
}

/** A spawned server, ready once `health` answers 200 (the service's health opens the database). */
export async function startServer(
  env: Record<string, string>,
  options: { dir?: string; health?: string; script?: string; graceMs?: number; nodeFlags?: readonly string[] } = {},
): Promise<RunningServer> {
  const health = options.health ?? "/api/v1/health";
  const { url, child, stop, stderr } = await spawnServer(env, options);
  const drain = async () => {
    for (let attempt = 1; ; attempt++) {
      // A fresh connection each time: a pooled one the server has since closed fails with ECONNRESET.
      const ok = await fetch(`${url}${health}`, { headers: { connection: "close" } }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (child.exitCode !== null || attempt === 5) throw new Error(`the server stopped answering: ${stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr()}`);
    // Health opens the database (migrations included), so the first measured request does not.
    const ok = await fetch(`${url}${health}`).then(
      (r) => r.ok,
      () => false,
    );
    const group = child.pid;
    if (ok && group) return { url, group, drain, stop, rssMb: () => groupRssMb(group) };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the server did not answer within 60 s: ${stderr()}`);
}
