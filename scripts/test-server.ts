// Prepares the Postgres-server test pass: a fresh database per run on the server (dropped after),
// and the Redis URL. In CI an unreachable server or Redis is a failure; on a laptop it is a loud skip.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createClient } from "redis";

export type ServerPass =
  | { kind: "ready"; url: string; redisUrl: string; drop: () => Promise<void> }
  | { kind: "skipped"; why: string }
  | { kind: "failed"; why: string };

export async function serverPass(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ServerPass> {
  const adminUrl = env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const redisUrl = env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
  const mustRun = Boolean(env.CI || env.TEST_DATABASE_URL);
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  const name = `pds_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end({ timeout: 1 }).catch(() => {});
    const why = `cannot create a database on ${redact(adminUrl)}: ${(error as Error).message}`;
    return mustRun ? { kind: "failed", why } : { kind: "skipped", why };
  }
  // The server pass is also the Redis pass: with Redis down the limiter would fail open to memory
  // buckets and its tests would pass without it, so an unreachable Redis stops the pass as well.
  const redisProblem = await pingRedis(redisUrl);
  if (redisProblem) {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end({ timeout: 1 }).catch(() => {});
    const why = `cannot reach Redis at ${redact(redisUrl)}: ${redisProblem}`;
    return mustRun ? { kind: "failed", why } : { kind: "skipped", why };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: "ready",
    url: url.toString(),
    redisUrl,
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end({ timeout: 1 });
    },
  };
}

/** Why Redis cannot be used, or null when it answers PING. */
async function pingRedis(url: string): Promise<string | null> {
  const client = createClient({ url, socket: { connectTimeout: 3000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.close().catch(() => {});
  }
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@");
