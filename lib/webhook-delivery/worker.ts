import { setting } from "../config/env.ts";
import { WEBHOOK_LIMITS } from "../../registry/events.ts";
import { KEEP_EVENTS_DAYS } from "../../registry/limits.ts";
import { asService, type Queryable } from "../db/index.ts";
import { webhookClock } from "../domain/webhooks/clock.ts";
import { decryptSecret } from "../domain/webhooks/secrets.ts";
import { type EventRow, eventBody } from "../domain/webhooks/payload.ts";
import { sendWebhook } from "./send.ts";
import { signatureHeaders } from "./sign.ts";

export { webhookClock };

/** A claimed attempt is not claimed again for this long (it ends within the 10 s send deadline). */
const LEASE_MS = 60_000;
/** A pass's claim (runWebhookDeliveries), and the room the loop waits for before it claims again. */
const BATCH = 20;
/** Deliveries the loop keeps going at once: each holds a socket to its receiver, not a database session. */
const IN_FLIGHT = 60;
const SCHEDULE = WEBHOOK_LIMITS.scheduleSeconds;

interface Claimed {
  id: string;
  attempts: number;
  endpoint_id: string;
  url: string;
  event: EventRow;
  secrets: { current_secret: string; previous_secret: string | null; previous_expires_at: string | null } | null;
}

/**
 * Claims due deliveries: FOR UPDATE SKIP LOCKED, so workers on any number of instances never take
 * the same row, and the claim moves next_attempt_at past a lease in the same committed statement,
 * so a row being sent is not due again unless its worker died (then it is retried: at least once).
 * Due is judged by the later of the worker's clock (tests move it on) and the database's own: the
 * store stamps rows in microseconds, a JS Date keeps milliseconds, and a row made in the current
 * millisecond would otherwise wait for the next pass.
 */
async function claim(now: Date, limit: number, endpoints: readonly string[] | null): Promise<Claimed[]> {
  const rows = await asService((tx) =>
    tx.queryCommit<{ r: Claimed }>(
      `with due as (
         select d.id from public.webhook_deliveries d
           join public.webhook_endpoints e on e.id = d.endpoint_id
          where d.status = 'pending' and d.next_attempt_at <= greatest($1::timestamptz, clock_timestamp())
            and (e.enabled or d.event_type = 'webhook_endpoint.ping')
            and ($4::uuid[] is null or d.endpoint_id = any ($4::uuid[]))
          order by d.next_attempt_at
          limit $2
          for update of d skip locked
       ), claimed as (
         update public.webhook_deliveries d
            set next_attempt_at = $3, attempts = d.attempts + 1, last_attempt_at = $1
           from due where d.id = due.id
         returning d.id, d.attempts, d.endpoint_id, d.event_id
       )
       select jsonb_build_object(
         'id', c.id, 'attempts', c.attempts, 'endpoint_id', c.endpoint_id, 'url', e.url,
         'event', to_jsonb(ev), 'secrets', to_jsonb(s)) as r
         from claimed c
         join public.webhook_endpoints e on e.id = c.endpoint_id
         join app_private.webhook_events ev on ev.id = c.event_id
         left join app_private.webhook_secrets s on s.endpoint_id = c.endpoint_id`,
      [now.toISOString(), limit, new Date(now.getTime() + LEASE_MS).toISOString(), endpoints],
    ),
  );
  return rows.map((row) => row.r);
}

function secretsOf(claimed: Claimed, now: Date): string[] {
  const s = claimed.secrets;
  if (!s) return [];
  const list = [decryptSecret(s.current_secret, claimed.endpoint_id)];
  if (s.previous_secret && s.previous_expires_at && Date.parse(s.previous_expires_at) > now.getTime()) {
    list.push(decryptSecret(s.previous_secret, claimed.endpoint_id));
  }
  return list;
}

/**
 * The attempt's outcome, and the endpoint's failing streak (cleared by a success; after 5 days of
 * failures the endpoint is disabled, and the settings page says why), in one statement that ends
 * its transaction: a round trip per delivery instead of three, and on the embedded database no
 * hop between threads while its one session is held.
 */
async function record(
  tx: Queryable,
  claimed: Claimed,
  now: Date,
  status: number | null,
  error: string | null,
  ms: number,
) {
  const ok = error === null;
  const failed = !ok && claimed.attempts >= SCHEDULE.length;
  const next = ok || failed ? null : new Date(now.getTime() + (SCHEDULE[claimed.attempts] ?? 0) * 1000).toISOString();
  // attempts = $8: a retry requested meanwhile (attempts reset) is not overwritten by this result.
  await tx.queryCommit(
    `with attempt as (
       update public.webhook_deliveries set status = $2, next_attempt_at = $3, last_status_code = $4, last_error = $5,
              duration_ms = $6, delivered_at = case when $2 = 'delivered' then $7::timestamptz else delivered_at end
        where id = $1 and attempts = $8
     )
     update public.webhook_endpoints
        set failing_since = case when $9 then null else coalesce(failing_since, $7::timestamptz) end,
            enabled = case when not $9 and coalesce(failing_since, $7::timestamptz) <= $7::timestamptz - make_interval(days => $11)
                           then false else enabled end,
            disabled_reason = case when not $9 and coalesce(failing_since, $7::timestamptz) <= $7::timestamptz - make_interval(days => $11)
                           then $12 else disabled_reason end
      where id = $10 and (not $9 or failing_since is not null)`,
    [
      claimed.id,
      ok ? "delivered" : failed ? "failed" : "pending",
      next,
      status,
      error,
      ms,
      now.toISOString(),
      claimed.attempts,
      ok,
      claimed.endpoint_id,
      WEBHOOK_LIMITS.disableAfterFailingDays,
      `Disabled by the service: every delivery failed for ${WEBHOOK_LIMITS.disableAfterFailingDays} days (last: ${error}).`,
    ],
  );
}

/** One attempt, sent and recorded; never rejects (an attempt it could not record is retried after the lease). */
async function deliver(claimed: Claimed): Promise<void> {
  try {
    const body = eventBody(claimed.event);
    const headers = signatureHeaders(claimed.event.id, body, secretsOf(claimed, webhookClock.now()), new Date());
    const result = await sendWebhook(claimed.url, body, headers);
    await asService((tx) => record(tx, claimed, webhookClock.now(), result.status, result.error, result.durationMs));
  } catch (error) {
    console.error("[webhooks] could not record a delivery", claimed.id, error);
  }
}

/**
 * One pass: claims what is due and sends it; answers how many attempts were made. `endpoints`
 * narrows the pass to some endpoints (tests sharing a database with others).
 */
export async function runWebhookDeliveries(
  options: { limit?: number; endpoints?: readonly string[] } = {},
): Promise<number> {
  const claimed = await claim(webhookClock.now(), options.limit ?? BATCH, options.endpoints ?? null);
  await Promise.all(claimed.map(deliver));
  return claimed.length;
}

/**
 * The upkeep task: deliveries older than 30 days, events older than 30 days (the log's window), and
 * events naming a member who deleted their account, whatever their age: their records went with the
 * account (decision 0008), so their copies go too. An event still waiting to be delivered stays until
 * it is. Then the sequence counters no event can follow any more: 30 days after a record's deletion
 * (an undo within those days continues the count), a check-in or a ping.
 */
export async function purgeWebhookDeliveries(tx: Queryable): Promise<number> {
  const now = webhookClock.now().getTime();
  const before = new Date(now - WEBHOOK_LIMITS.keepDeliveriesDays * 86_400_000).toISOString();
  const rows = await tx.query(
    "delete from public.webhook_deliveries where created_at < $1 and status <> 'pending' returning 1",
    [before],
  );
  const eventsBefore = new Date(now - KEEP_EVENTS_DAYS * 86_400_000).toISOString();
  // member_id is null on a ping (and on events written before the log): kept while a delivery refers to it.
  await tx.query(
    `delete from app_private.webhook_events ev
      where not exists (select 1 from public.webhook_deliveries d where d.event_id = ev.id and d.status = 'pending')
        and (ev.created_at < $1
          or (ev.member_id is null and not exists (select 1 from public.webhook_deliveries d where d.event_id = ev.id))
          or (ev.member_id is not null and not exists (select 1 from public.profiles p where p.id = ev.member_id))
          or (ev.other_member_id is not null and not exists (select 1 from public.profiles p where p.id = ev.other_member_id)))`,
    [eventsBefore],
  );
  await tx.query(
    `delete from app_private.record_event_sequences
      where touched_at < $1 and last_type not like '%.created' and last_type not like '%.updated'`,
    [eventsBefore],
  );
  return rows.length;
}

export interface WorkerHandle {
  stop(): Promise<void>;
}

/**
 * The delivery loop: claims what is due and keeps up to IN_FLIGHT deliveries going at once, claiming
 * again whenever a batch's worth has finished, so a slow receiver holds one slot, not a whole pass,
 * and deliveries keep pace with a burst of commits (bench/webhooks.ts). When nothing is due it
 * waits WEBHOOKS_POLL_MS (default 250). Runs in the server process (instrumentation.ts) or apart
 * (npm run worker); the 30-day purge is an upkeep task.
 * WEBHOOKS_ENDPOINTS (a comma list of endpoint ids) narrows a worker to those endpoints, to split
 * them across workers (the tests use it so a worker process leaves other files' deliveries alone).
 */
export function startWebhookWorker(options: { pollMs?: number; endpoints?: readonly string[] } = {}): WorkerHandle {
  const pollMs = options.pollMs ?? setting("WEBHOOKS_POLL_MS");
  const only = setting("WEBHOOKS_ENDPOINTS");
  const endpoints = options.endpoints ?? (only.length ? only : null);
  const running = new Set<Promise<void>>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if (running.size > IN_FLIGHT - BATCH) {
        await Promise.race(running);
        continue;
      }
      let found = 0;
      try {
        const claimed = await claim(webhookClock.now(), IN_FLIGHT - running.size, endpoints);
        found = claimed.length;
        for (const one of claimed) {
          const sent: Promise<void> = deliver(one).finally(() => running.delete(sent));
          running.add(sent);
        }
      } catch (error) {
        console.error("[webhooks] delivery pass failed; retrying", error);
      }
      if (!found) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    await Promise.all(running);
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

type Holder = typeof globalThis & { __pdsWebhookWorker?: WorkerHandle };

/** Starts the loop once per process unless WEBHOOKS_WORKER=off (test servers, a separate worker). */
export function startInProcessWorker(): WorkerHandle | null {
  if (!setting("WEBHOOKS_WORKER")) return null;
  const holder = globalThis as Holder;
  holder.__pdsWebhookWorker ??= startWebhookWorker();
  return holder.__pdsWebhookWorker;
}
