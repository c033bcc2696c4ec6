import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { closeDb, getDb } from "../lib/db/index.ts";
import { offlineEnv, rateLimitEnv, settings } from "./config.ts";

/** One database under test: a fresh one each run, never the developer's or the tests'. */
export interface Target {
  name: "postgres" | "pglite";
  /** What the server process and this process need to reach it. */
  env: Record<string, string>;
  /** Opens it in this process (lib/db reads the environment when it opens). */
  open: () => Promise<void>;
  /** Closes it here, so a server process can open it (PGlite allows one process per folder). */
  close: () => Promise<void>;
  drop: () => Promise<void>;
  /** Server backends connected to this database (for their CPU); none for PGlite. */
  dbPids: () => Promise<number[]>;
  /**
   * Brings a server database to the same state before each measurement of an A/B: the statistics and
   * visibility map current (VACUUM ANALYZE) and a checkpoint just taken, so no variant meets the seed's
   * autovacuum or a checkpoint's full-page writes more than the other. Nothing for PGlite (in the server's
   * own process while it runs).
   */
  settle: () => Promise<void>;
}

function useEnv(env: Record<string, string>): void {
  for (const [key, value] of Object.entries(env)) process.env[key] = value;
}

/**
 * What a server under load gets: the target's database, the run's raised rate limits (memory
 * store, no Redis) and the providers offline.
 */
export const serverEnv = (target: Target): Record<string, string> => ({
  ...target.env,
  ...rateLimitEnv,
  ...offlineEnv,
  REDIS_URL: "",
});

export async function createTarget(name: string): Promise<Target> {
  if (name === "postgres") return postgresTarget();
  if (name === "pglite") return pgliteTarget();
  throw new Error(`unknown database "${name}" (postgres or pglite)`);
}

async function postgresTarget(): Promise<Target> {
  const admin = postgres(settings.adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  const db = `pds_bench_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await admin.unsafe(`create database ${db}`);
  const url = new URL(settings.adminUrl);
  url.pathname = `/${db}`;
  const env = { DATABASE_URL: url.toString(), PGLITE_DIR: "" };
  return {
    name: "postgres",
    env,
    dbPids: async () =>
      (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${db}`).map((r) => r.pid),
    settle: async () => {
      const own = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        await own.unsafe("vacuum analyze");
        await own.unsafe("checkpoint");
      } finally {
        await own.end({ timeout: 1 });
      }
    },
    open: async () => {
      useEnv(env);
      await getDb();
    },
    close: closeDb,
    drop: async () => {
      await closeDb();
      await admin.unsafe(`drop database if exists ${db} with (force)`).catch(() => {});
      await admin.end({ timeout: 1 });
    },
  };
}

async function pgliteTarget(): Promise<Target> {
  const dir = path.resolve(settings.pgliteDir);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}.lock`, { force: true });
  const env = { DATABASE_URL: "", PGLITE_DIR: dir };
  return {
    name: "pglite",
    env,
    dbPids: async () => [],
    settle: async () => {},
    open: async () => {
      useEnv(env);
      await getDb();
    },
    close: closeDb,
    drop: async () => {
      await closeDb();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
