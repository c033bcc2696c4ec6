/**
 * Provider configuration, read from the environment on every call (so an operator can switch a
 * provider off without a release, and tests can point base URLs at a local fixture server).
 *
 * RESOLVER_PROVIDERS             unset or empty (the default): the keyless providers (Odesli, iTunes,
 *                                MusicBrainz + Cover Art Archive, Open Library, Wikipedia, page metadata),
 *                                plus Nominatim when RESOLVER_CONTACT is set; "off" (or "none"): no
 *                                provider, the offline catalog only; "all"; or a comma list of ids
 * RESOLVER_CONTACT               operator contact (e-mail or URL), sent in the User-Agent; Nominatim's
 *                                usage policy asks for one, so it is on by default only with it
 * RESOLVER_<ID>_URL              base URL of one provider (e.g. RESOLVER_ITUNES_URL); RESOLVER_HTML_URL replays
 *                                every page fetch from a local server (tests, npm run eval:resolver)
 * RESOLVER_DEADLINE_MS           total time one resolve may spend on providers, default 2500
 * RESOLVER_TIMEOUT_MS            per attempt (within the deadline), default 2000
 * RESOLVER_RETRIES               retries after the first attempt, default 2
 * RESOLVER_BREAKER_FAILURES      failed calls in a row that open a provider's circuit, default 3
 * RESOLVER_BREAKER_COOLDOWN_MS   how long an open circuit skips the provider, default 60000
 * RESOLVER_<ID>_BUDGET           a provider's shared request budget, "requests/seconds" (budget.ts has each policy)
 * RESOLVER_MIN_INTERVAL_MS       0 turns every provider's request budget off (tests against a fixture server)
 * RESOLVER_USER_AGENT            sent on every request; MusicBrainz, Nominatim and Wikimedia require one
 * RESOLVER_ALLOW_PRIVATE_HOSTS   hosts exempt from the SSRF guard for article pages (tests: 127.0.0.1)
 * RESOLVER_CACHE_TTL_SECONDS     how long a provider's answer is reused (shared cache), default 604800 (7 days); 0: not cached
 * RESOLVER_CACHE_FAILURE_TTL_SECONDS  how long a failed look-up (not found, refused) is, default 600; 0: not cached
 */

export const PROVIDER_IDS = ["odesli", "itunes", "musicbrainz", "openlibrary", "wikipedia", "nominatim", "html"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export interface ProviderSettings {
  id: ProviderId;
  baseUrl: string;
  timeoutMs: number;
  retries: number;
  userAgent: string;
  /** Aborts at the resolve's total deadline: every wait and request of the resolve stops there. */
  signal?: AbortSignal;
}

const DEFAULTS: Record<ProviderId, { baseUrl: string }> = {
  odesli: { baseUrl: "https://api.song.link/v1-alpha.1" },
  itunes: { baseUrl: "https://itunes.apple.com" },
  musicbrainz: { baseUrl: "https://musicbrainz.org/ws/2" },
  openlibrary: { baseUrl: "https://openlibrary.org" },
  // {lang} is replaced by the article's language.
  wikipedia: { baseUrl: "https://{lang}.wikipedia.org/api/rest_v1" },
  nominatim: { baseUrl: "https://nominatim.openstreetmap.org" },
  html: { baseUrl: "" },
};

/** Cover Art Archive rides along with MusicBrainz. */
export const coverArtBaseUrl = () => process.env.RESOLVER_COVERARTARCHIVE_URL ?? "https://coverartarchive.org";

const numberFrom = (value: string | undefined, fallback: number) => {
  const parsed = value === undefined || value === "" ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
};

/** Providers that need no key and whose terms allow use without a registered contact. */
const KEYLESS: readonly ProviderId[] = ["odesli", "itunes", "musicbrainz", "openlibrary", "wikipedia", "html"];

const contact = () => (process.env.RESOLVER_CONTACT ?? "").trim();

export function enabledProviders(): Set<ProviderId> {
  const raw = (process.env.RESOLVER_PROVIDERS ?? "").trim().toLowerCase();
  if (raw === "off" || raw === "none") return new Set();
  if (raw === "all") return new Set(PROVIDER_IDS);
  if (raw === "" || raw === "default") {
    return new Set<ProviderId>(contact() ? [...KEYLESS, "nominatim"] : KEYLESS);
  }
  return new Set(PROVIDER_IDS.filter((id) => raw.split(/[\s,]+/).includes(id)));
}

/** The total budget of one resolve's provider calls. */
export const resolveDeadlineMs = () => numberFrom(process.env.RESOLVER_DEADLINE_MS, 2500);

/** The resolver cache's lifetimes, in seconds (fractions allowed): answers, and failed look-ups. */
export const cacheTtlSeconds = () => ({
  answer: numberFrom(process.env.RESOLVER_CACHE_TTL_SECONDS, 7 * 24 * 60 * 60),
  failure: numberFrom(process.env.RESOLVER_CACHE_FAILURE_TTL_SECONDS, 10 * 60),
});

export const breakerSettings = () => ({
  failures: Math.max(1, numberFrom(process.env.RESOLVER_BREAKER_FAILURES, 3)),
  cooldownMs: numberFrom(process.env.RESOLVER_BREAKER_COOLDOWN_MS, 60_000),
});

export function providerSettings(id: ProviderId, signal?: AbortSignal): ProviderSettings {
  const defaults = DEFAULTS[id];
  return {
    id,
    baseUrl: (process.env[`RESOLVER_${id.toUpperCase()}_URL`] ?? defaults.baseUrl).replace(/\/+$/, ""),
    timeoutMs: numberFrom(process.env.RESOLVER_TIMEOUT_MS, 2000),
    retries: Math.min(numberFrom(process.env.RESOLVER_RETRIES, 2), 5),
    userAgent:
      process.env.RESOLVER_USER_AGENT ??
      `personal-data-service/0.1 (resolver; ${contact() || "operator contact not configured"})`,
    signal,
  };
}

export function privateHostAllowList(): Set<string> {
  return new Set(
    (process.env.RESOLVER_ALLOW_PRIVATE_HOSTS ?? "")
      .split(/[\s,]+/)
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
  );
}
