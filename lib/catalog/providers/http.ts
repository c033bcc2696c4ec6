import { isDnsFailure, providerBreaker } from "./breaker.ts";
import { takeBudget } from "./budget.ts";
import type { ProviderSettings } from "./config.ts";
import { throughCache } from "./durable-cache.ts";
import { ProviderError } from "./errors.ts";
import { abortableSleep } from "./abortable-sleep.ts";

/** The longest Retry-After we are willing to wait inside one request; longer → give up at once. */
const MAX_RETRY_WAIT_MS = 3000;

const pastDeadline = (settings: ProviderSettings) =>
  new ProviderError(settings.id, "timeout", `${settings.id} was not asked: the resolve's deadline had passed.`);

/** Failures that say the provider is down or unreachable (not that our request was wrong). */
const OUTAGE = new Set(["timeout", "network", "rate_limited", "http_error"]);

/**
 * Runs one provider call through the provider's circuit: an open circuit answers circuit_open
 * without any I/O; an outage counts against the circuit, a DNS failure opens it at once.
 */
export async function throughBreaker<T>(key: string, settings: ProviderSettings, call: () => Promise<T>): Promise<T> {
  const breaker = providerBreaker();
  if (!breaker.allows(key)) {
    const seconds = Math.ceil(breaker.retryInMs(key) / 1000);
    throw new ProviderError(
      settings.id,
      "circuit_open",
      `${settings.id} failed repeatedly; it is skipped for ${seconds} s.`,
    );
  }
  if (settings.signal?.aborted) throw pastDeadline(settings);
  try {
    const result = await call();
    breaker.succeeded(key);
    return result;
  } catch (error) {
    if (error instanceof ProviderError && OUTAGE.has(error.code) && !error.clientError) {
      breaker.failed(key, { immediately: error.dns });
    }
    throw error;
  }
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * GET a JSON document from a provider: User-Agent, per-attempt timeout, retries with exponential
 * backoff on timeouts, network errors, 5xx and 429 (honouring a short Retry-After), and the
 * resolver cache (durable-cache.ts), keyed by provider and URL; `isMiss` names a 200 that found
 * nothing, cached as briefly as a 404. Every wait and request ends at the resolve's deadline
 * (settings.signal); a DNS failure is not retried. Answers null for 404 (a definite "no such
 * thing"), throws ProviderError otherwise.
 */
export async function getJson(
  settings: ProviderSettings,
  url: string,
  isMiss?: (body: unknown) => boolean,
): Promise<unknown> {
  return throughCache(
    `${settings.id} ${url}`,
    () => throughBreaker(settings.id, settings, () => fetchJson(settings, url)),
    isMiss,
  );
}

async function fetchJson(settings: ProviderSettings, url: string): Promise<unknown> {
  let lastError: ProviderError | undefined;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    if (attempt > 0)
      await abortableSleep(Math.min(200 * 2 ** (attempt - 1) + Math.random() * 100, 2000), settings.signal);
    // Politeness across instances: every attempt spends one request of the provider's shared budget.
    await takeBudget(settings);
    if (settings.signal?.aborted) break;
    let response: Response;
    try {
      const perAttempt = AbortSignal.timeout(settings.timeoutMs);
      response = await fetch(url, {
        headers: { "user-agent": settings.userAgent, accept: "application/json" },
        signal: settings.signal ? AbortSignal.any([settings.signal, perAttempt]) : perAttempt,
        redirect: "follow",
      });
    } catch (error) {
      if (isDnsFailure(error)) {
        throw new ProviderError(
          settings.id,
          "network",
          `${settings.id} could not be reached (its name does not resolve).`,
          undefined,
          true,
        );
      }
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      lastError = timedOut
        ? new ProviderError(settings.id, "timeout", `${settings.id} did not answer in time.`)
        : new ProviderError(settings.id, "network", `${settings.id} could not be reached.`);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (response.status === 429 || response.status === 503) {
      await response.body?.cancel();
      const wait = retryAfterMs(response.headers.get("retry-after"));
      lastError = new ProviderError(
        settings.id,
        "rate_limited",
        `${settings.id} is rate limiting us.`,
        wait && wait / 1000,
      );
      if (wait !== undefined && wait > MAX_RETRY_WAIT_MS) break;
      if (wait !== undefined && attempt < settings.retries) await abortableSleep(wait, settings.signal);
      continue;
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      lastError = new ProviderError(settings.id, "http_error", `${settings.id} failed with HTTP ${response.status}.`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      const message = `${settings.id} refused the request with HTTP ${response.status}.`;
      throw new ProviderError(settings.id, "http_error", message, undefined, false, true);
    }
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      if (settings.signal?.aborted)
        throw new ProviderError(settings.id, "timeout", `${settings.id} did not answer in time.`);
      throw new ProviderError(settings.id, "malformed", `${settings.id} answered something that is not JSON.`);
    }
    return body;
  }
  throw lastError ?? pastDeadline(settings);
}

/**
 * A 200 that found nothing (for getJson's isMiss): an empty list at `field` (or the body itself),
 * or an empty object. Cached as briefly as a 404, so something published later is found soon.
 */
export const foundNothing =
  (field?: string) =>
  (body: unknown): boolean => {
    const list = field && body && typeof body === "object" ? (body as Record<string, unknown>)[field] : body;
    if (Array.isArray(list)) return list.length === 0;
    return !field && !!list && typeof list === "object" && Object.keys(list).length === 0;
  };

/** Builds a provider URL from its base, a path and query parameters. */
export function providerUrl(
  base: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const url = new URL(`${base}${path}`);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.href;
}
