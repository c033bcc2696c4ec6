import { setting } from "../config/env.ts";
import { asService, type Queryable } from "../db/index.ts";
import { readEntries } from "./catalog-store.ts";
import { enabledProviders } from "./providers/config.ts";
import type { ProviderWarning } from "./providers/errors.ts";
import { lookupWithProviders, type ProviderOutcome, resolveDeadline } from "./providers/index.ts";
import { classify } from "./recognise.ts";
import { storeLookup } from "./store-lookup.ts";

/**
 * Background completion of partial entries (issue 35, item 3). A resolve that could not ask a
 * provider in time — its shared request budget spent, the deadline reached, the provider down —
 * answers what it knew (partial: true) and queues the entry in app_private.catalog_completions. The
 * worker takes due rows (FOR UPDATE SKIP LOCKED, so any number of instances never take the same
 * one), asks the providers again with a longer deadline (a worker may wait for a budget's next
 * token; a member never does), and writes what they say through the same write function as
 * resolve. A row ends when the entry is complete, when the providers answered and none knows it,
 * or after MAX_ATTEMPTS; until then it is retried with exponential backoff.
 */

/** Failures that may pass: worth asking again later. A refusal or "not found" is not. */
const PASSING = new Set<ProviderWarning["code"]>([
  "timeout",
  "rate_limited",
  "network",
  "http_error",
  "circuit_open",
  "budget_exhausted",
]);
const MAX_ATTEMPTS = 8;
/** A claimed row is not claimed again for this long (a pass ends well within it). */
const LEASE_SECONDS = 120;

export const completionDeadlineMs = () => setting("CATALOG_COMPLETION_DEADLINE_MS");
/** Seconds before attempt n+1: 30 s, 1 min, 2 min, … capped at 1 h. */
export const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);

/** Whether what the providers said leaves something to complete later. */
export function worthCompleting(outcome: ProviderOutcome | null): boolean {
  return !!outcome?.warnings.some((warning) => PASSING.has(warning.code));
}

/** Queues an entry (idempotent: a queued entry keeps its row and schedule). */
export async function queueCompletion(tx: Queryable, entryId: string, input: string): Promise<void> {
  await tx.query(
    `insert into app_private.catalog_completions (entry_id, input) values ($1, $2) on conflict (entry_id) do nothing`,
    [entryId, input.slice(0, 2048)],
  );
}

interface Claimed {
  entry_id: string;
  input: string;
  attempts: number;
}

async function claim(limit: number, entries: readonly string[] | null): Promise<Claimed[]> {
  return asService((tx) =>
    tx.queryCommit<Claimed>(
      `with due as (
         select entry_id from app_private.catalog_completions
          where next_attempt_at <= now() and ($2::uuid[] is null or entry_id = any ($2::uuid[]))
          order by next_attempt_at limit $1
          for update skip locked
       )
       update app_private.catalog_completions c
          set attempts = c.attempts + 1, next_attempt_at = now() + make_interval(secs => $3)
         from due where c.entry_id = due.entry_id
       returning c.entry_id, c.input, c.attempts`,
      [limit, entries, LEASE_SECONDS],
    ),
  );
}

const forget = (tx: Queryable, entryId: string) =>
  tx.query("delete from app_private.catalog_completions where entry_id = $1", [entryId]);

/** Asks the providers for one queued entry and records the outcome; answers whether it is complete now. */
async function complete(row: Claimed): Promise<boolean> {
  // Completed meanwhile (a member resolved the link again) or merged away: nothing to ask.
  const [before] = await asService((tx) => readEntries(tx, [row.entry_id]));
  const classified = before?.partial ? classify(row.input) : null;
  if (!classified || classified.type === "phrase") {
    await asService((tx) => forget(tx, row.entry_id));
    return !before?.partial;
  }
  const outcome = enabledProviders().size
    ? await lookupWithProviders(classified.ref, resolveDeadline(completionDeadlineMs()))
    : null;
  return asService(async (tx) => {
    if (outcome) await storeLookup(tx, classified.ref, outcome.drafts);
    const [entry] = await readEntries(tx, [row.entry_id]);
    const done = !entry?.partial;
    if (done || !worthCompleting(outcome) || row.attempts >= MAX_ATTEMPTS) {
      await forget(tx, row.entry_id);
    } else {
      const why = outcome?.warnings.map((w) => `${w.provider}: ${w.code}`).join("; ") ?? null;
      await tx.query(
        `update app_private.catalog_completions
            set next_attempt_at = now() + make_interval(secs => $2), last_error = left($3, 2000)
          where entry_id = $1`,
        [row.entry_id, backoffSeconds(row.attempts), why],
      );
    }
    return done;
  });
}

/**
 * One pass: claims what is due and completes it, one entry after another (the providers' budgets
 * are shared; a worker has no reason to race its own requests). Answers how many were attempted.
 * `entries` narrows the pass (tests sharing a database with others).
 */
export async function runCatalogCompletions(
  options: { limit?: number; entries?: readonly string[] } = {},
): Promise<number> {
  const claimed = await claim(options.limit ?? 5, options.entries ?? null);
  for (const row of claimed) {
    await complete(row).catch(async (error: unknown) => {
      // An unexpected failure is retried when the lease ends, until the attempts run out.
      console.error("[catalog] completion failed", row.entry_id, error);
      if (row.attempts >= MAX_ATTEMPTS) await asService((tx) => forget(tx, row.entry_id)).catch(() => {});
    });
  }
  return claimed.length;
}

export interface CompletionWorker {
  stop(): Promise<void>;
}

/**
 * The completion loop: a pass every CATALOG_COMPLETIONS_POLL_MS (default 2000), at once again while
 * passes find work. `entries` narrows it to some entries (tests sharing a database with others).
 */
export function startCompletionWorker(
  options: { pollMs?: number; entries?: readonly string[] } = {},
): CompletionWorker {
  const pollMs = options.pollMs ?? setting("CATALOG_COMPLETIONS_POLL_MS");
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      let found = 0;
      try {
        found = await runCatalogCompletions(options.entries ? { entries: options.entries } : {});
      } catch (error) {
        console.error("[catalog] completion pass failed; retrying", error);
      }
      if (!found)
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, pollMs);
        });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

type Holder = typeof globalThis & { __pdsCompletionWorker?: CompletionWorker };

/** Starts the loop once per process unless CATALOG_WORKER=off (test servers, a separate worker). */
export function startInProcessCompletionWorker(): CompletionWorker | null {
  if (!setting("CATALOG_WORKER")) return null;
  const holder = globalThis as Holder;
  holder.__pdsCompletionWorker ??= startCompletionWorker();
  return holder.__pdsCompletionWorker;
}
