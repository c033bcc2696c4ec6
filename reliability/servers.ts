import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import postgres from "postgres";

/** Server processes and scratch databases for the parts that need real processes to kill. */
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const ADMIN_URL = process.env.RELIABILITY_ADMIN_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const node = path.join(process.cwd(), "node_modules", ".bin", "node");

export const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

export async function stopAll(): Promise<void> {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => {});
}

export async function scratchDatabase(): Promise<string> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `pds_reliability_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 1 });
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The store a child uses: a server database or an embedded data folder. */
export type StoreEnv = { DATABASE_URL: string } | { PGLITE_DIR: string };

const childEnv = (store: StoreEnv, extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  return { ...env, ...store };
};

/** A member and a token, made by the operator CLI in the store (its own process, as an operator would). */
export function cliToken(store: StoreEnv, scopes: string): string {
  const env = childEnv(store);
  const email = `m-${randomUUID()}@example.test`;
  const cli = (...args: string[]) => {
    const run = spawnSync(node, ["scripts/cli.ts", ...args], { env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${run.stderr}`);
    return run.stdout.trim();
  };
  cli("member", "create", "--email", email, "--password", "correct horse battery staple");
  return cli("token", "create", "--email", email, "--scopes", scopes);
}

export interface Server {
  url: string;
  child: ChildProcess;
}

/** scripts/serve-rest.ts: the REST handler `next start` runs, on node:http, without a build. */
export function serve(store: StoreEnv, extra: Record<string, string> = {}): Promise<Server> {
  const child = spawn(node, ["scripts/serve-rest.ts"], {
    env: childEnv(store, { PORT: "0", ...extra }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}): ${output}`));
    });
  });
}

export function killHard(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    server.child.kill("SIGKILL");
  });
}

export async function call(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, body: parsed };
}
