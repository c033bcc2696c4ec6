// The webhook row of npm run bench (issue 34's sixth target): BENCH_WEBHOOK_EVENTS events (10,000)
// committed by 8 concurrent writers and delivered to a loopback receiver by the delivery worker in
// this process, as in a server: each event's lag from commit to the receiver's 2xx (p50/p99/max),
// the throughput, and every event counted by its id, so a lost or duplicated one shows.
// Alone: node bench/webhooks.ts   (BENCH_DATABASES=pglite,postgres; BENCH_WEBHOOK_EVENTS=10000)
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
  /** Events committed (todos created, each firing todo.created). */
  committed: number;
  /** Distinct events the receiver acknowledged; committed − delivered were lost. */
  delivered: number;
  /** Deliveries of an event already delivered (at least once allows them; none is expected here). */
  duplicates: number;
  /** First commit to the last receiver 2xx. */
  seconds: number;
  eventsPerSecond: number;
  /** Commits per second the 8 writers reached (the rate the worker has to keep up with). */
  commitsPerSecond: number;
  /** Each event's commit (its created_at) to the receiver's 2xx. */
  lagMs: { p50: number; p99: number; max: number };
  /** Paced: one commit every 20 ms, so nothing queues: the lag of an event on its own. */
  pacedLagMs: { p50: number; p99: number; max: number };
}

const spread = (lags: number[]) => {
  const sorted = lags.toSorted((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 };
};

/**
 * Two passes with the worker running: 100 paced commits (one every 20 ms) for the lag of an event
 * alone, then `events` commits by 8 concurrent writers, every one of them counted at the receiver.
 */
export async function benchWebhooks(
  target: Target,
  events = Number(process.env.BENCH_WEBHOOK_EVENTS) || 10_000,
): Promise<WebhookResult> {
  process.env.WEBHOOKS_ALLOW_HTTP = "1";
  await target.open();
  /** Per event id: the lag of its first delivery, and how many times it came. */
  const received = new Map<string, { lag: number; times: number }>();
  let last = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; created_at: string };
      const seen = received.get(body.id);
      if (seen) seen.times++;
      else received.set(body.id, { lag: now - Date.parse(body.created_at), times: 1 });
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
    // Quiet for 60 s means the rest is lost, not late.
    let seen = received.size;
    let quietSince = Date.now();
    while (received.size < count && Date.now() - quietSince < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (received.size !== seen) [seen, quietSince] = [received.size, Date.now()];
    }
  };
  const paced = 100;
  let pacedLags: number[] = [];
  let started = 0;
  let committedAt = 0;
  try {
    for (let i = 0; i < paced; i++) {
      await commit(i);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await until(paced);
    pacedLags = [...received.values()].map((r) => r.lag);
    received.clear();
    started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < events) await commit(next++);
      }),
    );
    committedAt = Date.now();
    await until(events);
    // A duplicate would come after its first delivery: give one a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    await worker.stop();
    server.close();
    await target.close();
  }
  const seconds = (last - started) / 1000;
  const all = [...received.values()];
  return {
    committed: events,
    delivered: received.size,
    duplicates: all.reduce((sum, r) => sum + r.times - 1, 0),
    seconds: Math.round(seconds * 100) / 100,
    eventsPerSecond: Math.round(received.size / seconds),
    commitsPerSecond: Math.round(events / ((committedAt - started) / 1000)),
    lagMs: spread(all.map((r) => r.lag)),
    pacedLagMs: spread(pacedLags),
  };
}

export function printWebhooks(database: string, result: WebhookResult): void {
  const { lagMs: lag, pacedLagMs: paced } = result;
  console.log(
    `  webhooks [${database}]: ${result.committed} events committed at ${result.commitsPerSecond}/s by 8 writers; ${result.delivered} delivered (${result.committed - result.delivered} lost, ${result.duplicates} duplicated) at ${result.eventsPerSecond}/s in ${result.seconds} s; commit → receiver 2xx p50 ${lag.p50} ms, p99 ${lag.p99} ms, max ${lag.max} ms (one event alone, paced: p50 ${paced.p50} ms, p99 ${paced.p99} ms)`,
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
