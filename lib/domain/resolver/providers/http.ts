import { cacheGet, cacheSet } from "./cache.ts";
import type { ProviderSettings } from "./config.ts";
import { ProviderError } from "./errors.ts";

/** The longest Retry-After we are willing to wait inside one request; longer → give up at once. */
const MAX_RETRY_WAIT_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nextSlot = new Map<string, number>();

/** Politeness: requests to one provider leave this process at most once per minIntervalMs. */
async function politeTurn(settings: ProviderSettings): Promise<void> {
  const now = Date.now();
  const slot = Math.max(now, nextSlot.get(settings.id) ?? 0);
  nextSlot.set(settings.id, slot + settings.minIntervalMs);
  if (slot > now) await sleep(slot - now);
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
 * backoff on timeouts, network errors, 5xx and 429 (honouring a short Retry-After), and a cache.
 * Answers null for 404 (a definite "no such thing"), throws ProviderError otherwise.
 */
export async function getJson(settings: ProviderSettings, url: string): Promise<unknown> {
  const key = `${settings.id} ${url}`;
  const cached = cacheGet(key);
  if (cached.hit) return cached.value;
  let lastError: ProviderError | undefined;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    if (attempt > 0) await sleep(Math.min(200 * 2 ** (attempt - 1) + Math.random() * 100, 2000));
    await politeTurn(settings);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { "user-agent": settings.userAgent, accept: "application/json" },
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: "follow",
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      lastError = timedOut
        ? new ProviderError(settings.id, "timeout", `${settings.id} did not answer within ${settings.timeoutMs} ms.`)
        : new ProviderError(settings.id, "network", `${settings.id} could not be reached.`);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      cacheSet(key, null);
      return null;
    }
    if (response.status === 429 || response.status === 503) {
      await response.body?.cancel();
      const wait = retryAfterMs(response.headers.get("retry-after"));
      lastError = new ProviderError(settings.id, "rate_limited", `${settings.id} is rate limiting us.`, wait && wait / 1000);
      if (wait !== undefined && wait > MAX_RETRY_WAIT_MS) break;
      if (wait !== undefined && attempt < settings.retries) await sleep(wait);
      continue;
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      lastError = new ProviderError(settings.id, "http_error", `${settings.id} failed with HTTP ${response.status}.`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ProviderError(settings.id, "http_error", `${settings.id} refused the request with HTTP ${response.status}.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      throw new ProviderError(settings.id, "malformed", `${settings.id} answered something that is not JSON.`);
    }
    cacheSet(key, body);
    return body;
  }
  throw lastError ?? new ProviderError(settings.id, "network", `${settings.id} could not be reached.`);
}

/** Builds a provider URL from its base, a path and query parameters. */
export function providerUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const url = new URL(`${base}${path}`);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.href;
}
