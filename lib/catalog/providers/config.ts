/**
 * Provider configuration, read from the environment on every call (so an operator can switch a
 * provider off without a release, and tests can point base URLs at a local fixture server). The
 * variables (RESOLVER_*), their defaults and meaning: lib/config/env.ts.
 */
import { setting } from "../../config/env.ts";

export const PROVIDER_IDS = [
  "odesli",
  "itunes",
  "musicbrainz",
  "openlibrary",
  "wikipedia",
  "nominatim",
  "html",
] as const;
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

const BASE_URL = {
  odesli: "RESOLVER_ODESLI_URL",
  itunes: "RESOLVER_ITUNES_URL",
  musicbrainz: "RESOLVER_MUSICBRAINZ_URL",
  openlibrary: "RESOLVER_OPENLIBRARY_URL",
  // {lang} is replaced by the article's language.
  wikipedia: "RESOLVER_WIKIPEDIA_URL",
  nominatim: "RESOLVER_NOMINATIM_URL",
  html: "RESOLVER_HTML_URL",
} as const satisfies Record<ProviderId, string>;

/** Cover Art Archive rides along with MusicBrainz. */
export const coverArtBaseUrl = () => setting("RESOLVER_COVERARTARCHIVE_URL");

/** Providers that need no key and whose terms allow use without a registered contact. */
const KEYLESS: readonly ProviderId[] = ["odesli", "itunes", "musicbrainz", "openlibrary", "wikipedia", "html"];

const contact = () => setting("RESOLVER_CONTACT");

export function enabledProviders(): Set<ProviderId> {
  const raw = setting("RESOLVER_PROVIDERS");
  if (raw === "off" || raw === "none") return new Set();
  if (raw === "all") return new Set(PROVIDER_IDS);
  if (raw === "" || raw === "default") {
    return new Set<ProviderId>(contact() ? [...KEYLESS, "nominatim"] : KEYLESS);
  }
  return new Set(PROVIDER_IDS.filter((id) => raw.split(/[\s,]+/).includes(id)));
}

/** The total budget of one resolve's provider calls. */
export const resolveDeadlineMs = () => setting("RESOLVER_DEADLINE_MS");

/** The resolver cache's lifetimes, in seconds (fractions allowed): answers, and failed look-ups. */
export const cacheTtlSeconds = () => ({
  answer: setting("RESOLVER_CACHE_TTL_SECONDS"),
  failure: setting("RESOLVER_CACHE_FAILURE_TTL_SECONDS"),
});

export const breakerSettings = () => ({
  failures: Math.max(1, setting("RESOLVER_BREAKER_FAILURES")),
  cooldownMs: setting("RESOLVER_BREAKER_COOLDOWN_MS"),
});

export function providerSettings(id: ProviderId, signal?: AbortSignal): ProviderSettings {
  return {
    id,
    baseUrl: setting(BASE_URL[id]).replace(/\/+$/, ""),
    timeoutMs: setting("RESOLVER_TIMEOUT_MS"),
    retries: Math.min(setting("RESOLVER_RETRIES"), 5),
    userAgent:
      setting("RESOLVER_USER_AGENT") ??
      `personal-data-service/0.1 (resolver; ${contact() || "operator contact not configured"})`,
    signal,
  };
}

export function privateHostAllowList(): Set<string> {
  return new Set(setting("RESOLVER_ALLOW_PRIVATE_HOSTS"));
}
