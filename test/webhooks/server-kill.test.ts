// test-files: both stores in one pass (it starts servers on an embedded folder and on a scratch database of its own)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, cliToken, killHard, type Server, type StoreEnv, serve, stopAll } from "../../reliability/servers";
import { scratchDatabase } from "../support/serve-rest-process";
import { startReceiver, verifyServiceSignature, verifyStandard } from "../support/webhook-receiver";

/**
 * kill -9 of the server itself, with its in-process worker, between the commit of a write and the
 * delivery of its event: the server process (scripts/serve-rest.ts: the REST handler and the boot
 * hook `next start` runs) commits the write, its worker sends the event to a receiver that holds
 * its answer, the process dies, and a server restarted on the same store delivers the event, once
 * acknowledged, under the same webhook-id. On an embedded data folder and on Postgres (a scratch
 * database on the Postgres server: a worker on the suite's shared database would take other files'
 * deliveries), in the PGlite pass only: the servers it starts use these stores whatever the pass, so
 * the server pass would repeat the same (scripts/test-files.ts).
 */
const LEASE_PAST_MS = 61_000; // the worker's claim lease is 60 s
const serverEnv = {
  WEBHOOKS_WORKER: "on",
  WEBHOOKS_ALLOW_HTTP: "1",
  WEBHOOKS_POLL_MS: "50",
  REDIS_URL: "",
  RATE_LIMIT_CAPACITY: "1000000",
};
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Delivery = { id: string; status: string; attempts: number; event_id: string };

async function killBetweenCommitAndDelivery(store: StoreEnv) {
  const token = cliToken(store, "todos:write,webhooks:read,webhooks:write");
  let answer = 0; // 0: hold the request unanswered
  const acknowledged: string[] = [];
  const r = await startReceiver((one) => {
    if (answer) acknowledged.push(String(one.headers["webhook-id"]));
    return answer;
  });
  cleanups.push(r.close);

  let server: Server = await serve(store, serverEnv);
  const endpoint = await call(server.url, "POST", "/webhook-endpoints", token, {
    url: r.url,
    events: ["todo.created"],
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const { id: endpointId, secret } = endpoint.body as { id: string; secret: string };
  const todo = await call(server.url, "POST", "/todos", token, { title: "survive the server's death" });
  expect(todo.status).toBe(201);
  const todoId = (todo.body as { id: string }).id;

  // The server's own worker has claimed the delivery and is sending it: kill the server before the
  // receiver answers, so nothing about the attempt is recorded.
  await r.waitFor(1, 20_000);
  await killHard(server);
  expect(acknowledged).toEqual([]);

  // Restarted on the same store once the dead claim's lease has run out: the event goes out again.
  answer = 200;
  server = await serve(store, {
    ...serverEnv,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=./test/support/webhook-clock-ahead.ts`.trim(),
    WEBHOOK_CLOCK_AHEAD_MS: String(LEASE_PAST_MS),
  });
  await r.waitFor(2, 20_000);
  let delivery: Delivery | undefined;
  for (let i = 0; i < 100 && delivery?.status !== "delivered"; i++) {
    const list = await call(server.url, "GET", `/webhook-endpoints/${endpointId}/deliveries`, token);
    expect(list.status).toBe(200);
    delivery = (list.body as { data: Delivery[] }).data[0];
    if (delivery?.status !== "delivered") await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Nothing more comes: the acknowledged attempt was recorded.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await killHard(server);

  expect(delivery).toMatchObject({ status: "delivered", attempts: 2 });
  expect(r.received).toHaveLength(2);
  const [held, redelivered] = r.received as [(typeof r.received)[0], (typeof r.received)[0]];
  expect(redelivered.headers["webhook-id"]).toBe(held.headers["webhook-id"]);
  expect(redelivered.json.id).toBe(held.json.id);
  expect(acknowledged).toEqual([held.headers["webhook-id"]]);
  expect(redelivered.json.type).toBe("todo.created");
  expect(redelivered.json.data.id).toBe(todoId);
  for (const one of r.received) {
    expect(verifyStandard(secret, one)).toBeTruthy();
    expect(verifyServiceSignature(secret, one)).toBe(true);
  }
}

describe("kill -9 of the server with its in-process webhook worker", () => {
  it("embedded data folder: the event is delivered after the restart, once acknowledged", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-webhook-kill-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    await killBetweenCommitAndDelivery({ PGLITE_DIR: path.join(dir, "data") });
  }, 120_000);

  // Against the Postgres server the suite is given (CI has one; an unreachable server fails this
  // test, it is never skipped).
  it("Postgres: the event is delivered after the restart, once acknowledged", async () => {
    const server =
      process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
    await killBetweenCommitAndDelivery({ DATABASE_URL: await scratchDatabaseBeside(server) });
  }, 120_000);
});

/** A database of its own on that Postgres server, dropped after the file. */
async function scratchDatabaseBeside(serverUrl: string): Promise<string> {
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = "/postgres";
  const { url, drop } = await scratchDatabase(adminUrl.toString(), "pds_webhook_kill");
  cleanups.push(drop);
  return url;
}
