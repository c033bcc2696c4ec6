import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { makeMember } from "../support/factories";

/**
 * Two separate server processes (scripts/serve-rest.ts: the real REST handler on node:http) share
 * one Redis and one Postgres, and together let exactly one bucket's worth of requests through.
 * Needs Redis and a Postgres server in both passes: on the PGlite pass it makes a scratch database.
 */
const REDIS_URL = process.env.REDIS_URL || process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
const ADMIN_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const node = path.join(process.cwd(), "node_modules", ".bin", "node");

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  for (const cleanup of cleanups) await cleanup();
});

async function databaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `pds_limits_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 1 });
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A token in the servers' database: in-process on the server pass, else through the operator CLI. */
async function tokenIn(dbUrl: string): Promise<string> {
  if (process.env.DATABASE_URL) return (await makeMember()).token;
  const env = { ...process.env, DATABASE_URL: dbUrl };
  const email = `m-${randomUUID()}@example.test`;
  const cli = (...args: string[]) => {
    const run = spawnSync(node, ["scripts/cli.ts", ...args], { env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`cli ${args.join(" ")} failed: ${run.stderr}`);
    return run.stdout.trim();
  };
  cli("member", "create", "--email", email, "--password", "correct horse battery staple");
  return cli("token", "create", "--email", email, "--scopes", "collections:read");
}

function serve(dbUrl: string): Promise<string> {
  const child = spawn(node, ["scripts/serve-rest.ts"], {
    env: {
      ...process.env,
      PORT: "0",
      DATABASE_URL: dbUrl,
      REDIS_URL,
      // The spec's bucket of 30, refilling too slowly to matter during the test.
      RATE_LIMIT_CAPACITY: "",
      RATE_LIMIT_REFILL_PER_SECOND: "0.01",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

describe("rate limits across instances", () => {
  it("two server processes sharing one Redis enforce one bucket of 30 together", async () => {
    const dbUrl = await databaseUrl();
    const token = await tokenIn(dbUrl);
    const [first, second] = await Promise.all([serve(dbUrl), serve(dbUrl)]);
    expect(first).not.toBe(second);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const base = i % 2 ? first : second;
      const response = await fetch(`${base}/api/v1/collections`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
  }, 90_000);
});
