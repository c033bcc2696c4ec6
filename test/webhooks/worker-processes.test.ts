import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import { runWebhookDeliveries, webhookClock } from "@/lib/webhook-delivery/worker";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { startReceiver } from "../support/webhook-receiver";

process.env.WEBHOOKS_ALLOW_HTTP = "1";

/**
 * Separate worker processes (npm run worker) against the Postgres server: the embedded database
 * admits one process, so these run in the server pass only — which CI never skips (scripts/
 * test-server.ts fails the run when Postgres or Redis is missing; test/ci/server-pass.test.ts).
 */
const children: ChildProcess[] = [];
// Each worker is narrowed to the test's endpoint: other files share this database at the same time.
function startWorker(endpoint: string): ChildProcess {
  const child = spawn(process.execPath, ["scripts/worker.ts"], {
    env: { ...process.env, WEBHOOKS_ALLOW_HTTP: "1", WEBHOOKS_POLL_MS: "50", WEBHOOKS_ENDPOINTS: endpoint },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });

afterAll(async () => {
  await Promise.all(children.map((child) => stop(child, "SIGKILL")));
});

describe.runIf(process.env.DATABASE_URL)("webhook worker processes (Postgres)", () => {
  it("loses nothing when the worker is killed with -9 between commit and delivery", async () => {
    const ada = await makeMember();
    let hang = true;
    const r = await startReceiver(() => (hang ? 0 : 200));
    const created = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: r.url, events: ["todo.created"] },
    });
    const todo = await api("POST", "/todos", { token: ada.token, body: { title: "survive a crash" } });
    expect(todo.status).toBe(201);
    const worker = startWorker(created.body.id);
    // The worker has claimed the delivery and is sending it: kill it before it can record anything.
    await r.waitFor(1, 20_000);
    await stop(worker, "SIGKILL");
    const [pending] = await asService((tx) =>
      tx.query<{ status: string }>("select status from public.webhook_deliveries where endpoint_id = $1", [
        created.body.id,
      ]),
    );
    expect(pending?.status).toBe("pending");
    // After the restart the claim's lease has run out: the event goes out again and is acknowledged.
    hang = false;
    const later = Date.now() + 61_000;
    webhookClock.now = () => new Date(later);
    try {
      await runWebhookDeliveries({ endpoints: [created.body.id] });
    } finally {
      webhookClock.now = () => new Date();
    }
    await r.waitFor(2);
    const ids = new Set(r.received.map((one) => one.json.id));
    expect(ids.size).toBe(1);
    expect(r.received[1]?.json.data.id).toBe(todo.body.id);
    const [done] = await asService((tx) =>
      tx.query<{ status: string }>("select status from public.webhook_deliveries where endpoint_id = $1", [
        created.body.id,
      ]),
    );
    expect(done?.status).toBe("delivered");
    await r.close();
  }, 60_000);

  it("delivers each event once with two worker processes claiming under SKIP LOCKED", async () => {
    const ada = await makeMember();
    const r = await startReceiver();
    const created = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: r.url, events: ["goal.created"] },
    });
    const count = 40;
    for (let i = 0; i < count; i++) {
      const goal = await api("POST", "/goals", { token: ada.token, body: { title: `g${i}`, target_value: 1 } });
      expect(goal.status).toBe(201);
    }
    const workers = [startWorker(created.body.id), startWorker(created.body.id)];
    await r.waitFor(count, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await Promise.all(workers.map((worker) => stop(worker, "SIGTERM")));
    const ids = r.received.map((one) => one.json.id);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    await r.close();
  }, 60_000);
});
