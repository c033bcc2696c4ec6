// The webhook row of npm run bench: events per second from commit to the receiver's 2xx, and the
// commit-to-delivery latency (p50/p99), with the delivery worker in this process as in a server.
// Alone: node bench/webhooks.ts   (BENCH_DATABASES=pglite,postgres; BENCH_WEBHOOK_EVENTS=300)
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { createMember } from "../lib/auth/members.ts";
import { asMember } from "../lib/db/index.ts";
import { encryptSecret, newWebhookSecret } from "../lib/domain/webhooks/secrets.ts";
import { startWebhookWorker } from "../lib/webhook-delivery/worker.ts";
import { settings } from "./config.ts";
import { createTarget, type Target } from "./databases.ts";
import { writeResults } from "./report.ts";
import { percentile } from "./stats.ts";

export interface WebhookResult {
  /** Burst: events committed by 8 concurrent writers, first commit to last receiver 2xx. */
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Paced: one commit every 20 ms, commit (event created_at) to the receiver's 2xx. */
  latencyEvents: number;
  latencyMs: { p50: number; p99: number; max: number };
}

/**
 * Two passes with the worker running: paced commits (one todo every 20 ms) for the latency, then a
 * burst of `events` commits by 8 concurrent writers for the throughput.
 */
export async function benchWebhooks(
  target: Target,
  events = Number(process.env.BENCH_WEBHOOK_EVENTS) || 300,
): Promise<WebhookResult> {
  process.env.WEBHOOKS_ALLOW_HTTP = "1";
  await target.open();
  const acks: number[] = [];
  let last = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { created_at: string };
      acks.push(now - Date.parse(body.created_at));
      last = now;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const member = await createMember({
    email: `bench-hooks-${Date.now()}@example.test`,
    handle: `bh_${Date.now() % 1e9}`,
  });
  await asMember(member.id, async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      "insert into public.webhook_endpoints (url, events) values ($1, array['todo.created']) returning id",
      [url],
    );
    if (!row) throw new Error("no endpoint");
    await tx.query("select app_private.set_webhook_secret($1, $2, null)", [
      row.id,
      encryptSecret(newWebhookSecret(), row.id),
    ]);
  });
  const worker = startWebhookWorker({ pollMs: 10 });
  const commit = (i: number) =>
    asMember(member.id, (tx) => tx.query("insert into public.todos (title) values ($1)", [`bench ${i}`]));
  const until = async (count: number) => {
    const deadline = Date.now() + 60_000;
    while (acks.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const paced = 100;
  let latency: number[] = [];
  let started = 0;
  try {
    for (let i = 0; i < paced; i++) {
      await commit(i);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await until(paced);
    latency = acks.splice(0).sort((a, b) => a - b);
    started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < events) await commit(next++);
      }),
    );
    await until(events);
  } finally {
    await worker.stop();
    server.close();
    await target.close();
  }
  const seconds = (last - started) / 1000;
  return {
    events: acks.length,
    seconds: Math.round(seconds * 100) / 100,
    eventsPerSecond: Math.round(acks.length / seconds),
    latencyEvents: latency.length,
    latencyMs: { p50: percentile(latency, 50), p99: percentile(latency, 99), max: latency.at(-1) ?? 0 },
  };
}

export function printWebhooks(database: string, result: WebhookResult): void {
  console.log(
    `  webhooks [${database}]: ${result.eventsPerSecond} events/s commit → receiver 2xx (burst of ${result.events}); commit-to-delivery p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms (${result.latencyEvents} paced)`,
  );
}

if (import.meta.main) {
  const results: Record<string, WebhookResult> = {};
  for (const name of settings.databases) {
    const target = await createTarget(name);
    try {
      results[name] = await benchWebhooks(target);
      printWebhooks(name, results[name]);
    } finally {
      await target.drop();
    }
  }
  const machine = { cpus: os.cpus().length, node: process.version, load: os.loadavg() };
  const file = writeResults({ kind: "webhooks", startedAt: new Date().toISOString(), machine, results }, "webhooks-");
  console.log(`Wrote ${file}`);
  process.exit(0);
}
