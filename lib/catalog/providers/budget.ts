import { type Env, setting } from "../../config/env.ts";
import { rateLimitStore } from "../../http/rate-limit-store.ts";
import type { ProviderId, ProviderSettings } from "./config.ts";
import { ProviderError } from "./errors.ts";
import { abortableSleep } from "./abortable-sleep.ts";

/** A provider's request budget: at most `requests` per `perSeconds`, as a token bucket (bursts up to `requests`). */
export interface Budget {
  requests: number;
  perSeconds: number;
}

/**
 * Each provider's documented policy, shared by every instance of the service: the buckets live in
 * the rate limits' store (lib/http/rate-limit-store.ts: Redis when REDIS_URL is set, else this
 * process's memory), so ten instances together stay within what one may send.
 */
const POLICIES: Record<Exclude<ProviderId, "html">, Budget> = {
  // Odesli API v1-alpha.1, "Rate Limiting": without an API key, 10 requests per minute.
  odesli: { requests: 10, perSeconds: 60 },
  // iTunes Search API: "approximately 20 calls per minute (subject to change)".
  itunes: { requests: 20, perSeconds: 60 },
  // MusicBrainz API rate limiting: one request per second per source IP, on average.
  musicbrainz: { requests: 1, perSeconds: 1 },
  // Open Library developer guidance: about 1 request/s anonymous, 3/s with an identifying User-Agent
  // (which we send); 1/s keeps us polite either way.
  openlibrary: { requests: 1, perSeconds: 1 },
  // Wikimedia REST API: no more than 200 requests/s per client; far above what we send, kept as a ceiling.
  wikipedia: { requests: 200, perSeconds: 1 },
  // Nominatim usage policy: an absolute maximum of 1 request per second.
  nominatim: { requests: 1, perSeconds: 1 },
};

const BUDGET = {
  odesli: "RESOLVER_ODESLI_BUDGET",
  itunes: "RESOLVER_ITUNES_BUDGET",
  musicbrainz: "RESOLVER_MUSICBRAINZ_BUDGET",
  openlibrary: "RESOLVER_OPENLIBRARY_BUDGET",
  wikipedia: "RESOLVER_WIKIPEDIA_BUDGET",
  nominatim: "RESOLVER_NOMINATIM_BUDGET",
} as const satisfies Record<Exclude<ProviderId, "html">, string>;

/**
 * The budget in force: RESOLVER_<ID>_BUDGET ("10/60": requests per seconds) overrides the policy;
 * RESOLVER_MIN_INTERVAL_MS=0 turns budgets off (tests against a local fixture server). Article
 * pages (html) are fetched from any host and carry no budget of their own.
 */
export function providerBudget(id: ProviderId, env?: Env): Budget | null {
  if (id === "html" || setting("RESOLVER_MIN_INTERVAL_MS", env) === 0) return null;
  const override = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(setting(BUDGET[id], env) ?? "");
  if (override) {
    const requests = Number(override[1]);
    const perSeconds = Number(override[2]);
    if (requests >= 1 && perSeconds > 0) return { requests, perSeconds };
  }
  return POLICIES[id];
}

const deadlines = new WeakMap<AbortSignal, number>();

/** A resolve's (or a completion's) total deadline: the signal aborts every wait and request at once. */
export function deadlineSignal(ms: number): AbortSignal {
  const signal = AbortSignal.timeout(ms);
  deadlines.set(signal, Date.now() + ms);
  return signal;
}

const exhausted = (settings: ProviderSettings, seconds: number) =>
  new ProviderError(
    settings.id,
    "budget_exhausted",
    `${settings.id} was not asked: its shared request budget is spent for about ${Math.max(1, Math.ceil(seconds))} s; the entry is completed in the background.`,
    seconds,
  );

/**
 * Takes one request from the provider's shared bucket before a request leaves. When the bucket is
 * empty it waits for the next token only if that comes before the caller's deadline; otherwise it
 * gives up at once with budget_exhausted: a member never queues behind others past the deadline.
 * The bucket is keyed by provider and base URL (one upstream endpoint, one budget).
 */
export async function takeBudget(settings: ProviderSettings): Promise<void> {
  const budget = providerBudget(settings.id);
  if (!budget) return;
  const refill = budget.requests / budget.perSeconds;
  const bucket = {
    key: `resolver-budget:${settings.id}:${settings.baseUrl}`,
    capacity: budget.requests,
    refillPerSecond: refill,
  };
  const store = await rateLimitStore();
  for (;;) {
    const { allowed, levels } = await store.take([bucket]);
    if (allowed) return;
    const waitMs = Math.ceil(((1 - (levels[0] ?? 0)) / refill) * 1000);
    const end = settings.signal ? deadlines.get(settings.signal) : undefined;
    if (settings.signal?.aborted || end === undefined || Date.now() + waitMs >= end)
      throw exhausted(settings, waitMs / 1000);
    await abortableSleep(waitMs, settings.signal);
  }
}
