import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { EMBEDDED_DATABASE_NODE_FLAGS } from "../../scripts/server-runtime.ts";
import { CLI_ARGS, CLI_NODE } from "./cli-command";

/**
 * Separate server processes (scripts/serve-rest.ts), the operator CLI and scratch databases, for the
 * tests and the reliability suite that need more than one process on one store. Each caller passes
 * the whole environment of its children: what differs between them (store, Redis, limits, worker)
 * stays with the caller.
 */

// The project's pinned Node, so that children run what the tests run.
const node = path.join(process.cwd(), "node_modules", ".bin", "node");

const running = new Set<ChildProcess>();
const drops: (() => Promise<void>)[] = [];

export interface ServeRestProcess {
  url: string;
  child: ChildProcess;
}

/** scripts/serve-rest.ts on a free port; resolves once it prints "listening <url>". */
export function startServeRest(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ServeRestProcess> {
  // The flags the embedded database needs: some callers start it on PGlite (scripts/server-runtime.ts).
  const child = spawn(node, [...EMBEDDED_DATABASE_NODE_FLAGS, "scripts/serve-rest.ts"], {
    env: { ...env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), timeoutMs);
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

/** SIGTERM to every server this module started that is still running; drops the shared databases it made. */
export async function stopServeRest(): Promise<void> {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  for (const drop of drops.splice(0)) await drop();
}

/**
 * The Postgres database the server processes of a test share: the suite's own on the server pass
 * (DATABASE_URL); on the PGlite pass a scratch one on the TEST_DATABASE_URL server (the embedded
 * database admits one process), dropped by stopServeRest().
 */
export async function sharedServerDatabase(prefix: string): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const { url, drop } = await scratchDatabase(adminUrl, prefix);
  drops.push(drop);
  return url;
}

/** SIGKILL, resolved once the process is gone. */
export function killHard(server: ServeRestProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    server.child.kill("SIGKILL");
  });
}

/** The operator CLI (scripts/cli.ts) in its own process, as `npm run cli` runs it; answers its stdout. */
export function operatorCli(env: NodeJS.ProcessEnv): (...args: string[]) => string {
  return (...args) => {
    const run = spawnSync(CLI_NODE, [...CLI_ARGS, ...args], { env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${run.stderr}`);
    return run.stdout.trim();
  };
}

/** A new member and a token with these scopes (comma-separated), made by the operator CLI. */
export function cliMemberToken(env: NodeJS.ProcessEnv, scopes: string): string {
  const cli = operatorCli(env);
  const email = `m-${randomUUID()}@example.test`;
  cli("member", "create", "--email", email, "--password", "correct horse battery staple");
  return cli("token", "create", "--email", email, "--scopes", scopes);
}

/** A new database on the server behind adminUrl; drop() removes it and closes the admin session. */
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 1 });
    },
  };
}
