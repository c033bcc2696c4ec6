import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { record } from "./report";
import { call, cliToken, killHard, type Server, type StoreEnv, scratchDatabase, serve, stopAll } from "./servers";

// Crash safety: a bounded write load on a server process, kill -9 while writes are in flight,
// restart on the same store, and every write the server acknowledged (201) must be there. On
// Postgres and on the embedded data folder, whose lock the dead process leaves behind.

const WRITES = Number(process.env.RELIABILITY_CRASH_WRITES ?? 300);
const KILL_AFTER_ACKS = Math.floor(WRITES / 2);
const CONCURRENCY = 4;

afterAll(stopAll);

async function crashRound(store: StoreEnv, label: string) {
  const token = cliToken(store, "todos:read,todos:write");
  const extra = { RATE_LIMIT_CAPACITY: "1000000", REDIS_URL: "" };
  let server: Server = await serve(store, extra);
  const acknowledged: string[] = [];
  let sent = 0;
  let failed = 0;
  let killed = false;
  let killing: Promise<void> | undefined;
  const worker = async () => {
    while (sent < WRITES && !killed) {
      const n = sent++;
      try {
        const response = await call(server.url, "POST", "/todos", token, { title: `${label} write ${n}` });
        if (response.status === 201) acknowledged.push((response.body as { id: string }).id);
        else failed++;
      } catch {
        failed++; // the connection died with the process: not acknowledged
      }
      if (!killing && acknowledged.length >= KILL_AFTER_ACKS) {
        killing = killHard(server).then(() => {
          killed = true;
        });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await killing;
  const lockFile = "PGLITE_DIR" in store ? `${store.PGLITE_DIR.replace(/\/+$/, "")}.lock` : undefined;
  const staleLockLeft = lockFile ? fs.existsSync(lockFile) : false;
  const restartedAt = Date.now();
  server = await serve(store, extra);
  const reopened = await call(server.url, "GET", "/todos?limit=1", token);
  const restartMs = Date.now() - restartedAt;
  let lost = 0;
  for (const id of acknowledged) {
    const found = await call(server.url, "GET", `/todos/${id}`, token);
    if (found.status !== 200) lost++;
  }
  await killHard(server);
  return {
    writes_sent: sent,
    acknowledged: acknowledged.length,
    unacknowledged: failed,
    acknowledged_lost: lost,
    reopened_status: reopened.status,
    stale_lock_left_by_kill: staleLockLeft,
    restart_ms: restartMs,
  };
}

describe("crash safety", () => {
  it("Postgres: kill -9 under write load, restart, no acknowledged write lost", async () => {
    const figures = await crashRound({ DATABASE_URL: await scratchDatabase() }, "postgres");
    record("crash_postgres", figures);
    expect(figures.acknowledged).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(figures.reopened_status).toBe(200);
    expect(figures.acknowledged_lost).toBe(0);
  });

  it("embedded data folder: kill -9 under write load, the stale lock is taken over, no acknowledged write lost", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-reliability-"));
    try {
      const figures = await crashRound({ PGLITE_DIR: path.join(dir, "data") }, "pglite");
      record("crash_pglite", figures);
      expect(figures.acknowledged).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
      expect(figures.stale_lock_left_by_kill).toBe(true);
      expect(figures.reopened_status).toBe(200);
      expect(figures.acknowledged_lost).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
