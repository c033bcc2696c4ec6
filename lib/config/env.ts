import { z } from "zod";
import { RESOLVER_POLICY, TOKEN_POLICY } from "../../registry/limits.ts";

/**
 * The service's environment: every variable the code reads, its type, default and meaning, in one
 * zod schema. This is the only file that reads `process.env` (biome's noProcessEnv says so
 * everywhere else); docs/configuration.md is generated from it (scripts/build-configuration-doc.ts).
 * A variable is read when asked for, not at import, so a changed environment (a test, an operator's
 * switch) applies at once; a value is parsed once per distinct string.
 */

/** Environment variables as read here; tests pass plain objects. */
export type Env = Readonly<Record<string, string | undefined>>;

export const SECTIONS = {
  server: "Server",
  database: "Database",
  limits: "Rate limits",
  resolver: "Resolver (the catalog's upstream providers)",
  uploads: "Uploads",
  auth: "Sign-in (Supabase)",
  webhooks: "Webhooks",
  upkeep: "Upkeep",
  platform: "Set by the platform or the build",
} as const;

interface Doc {
  section: keyof typeof SECTIONS;
  description: string;
  /** The default as the reference shows it, where the parsed default alone would not say it. */
  shown?: string;
}

type Raw = string | undefined;
const raw = z.string().optional();
const blank = (value: Raw) => (value?.trim() ? value.trim() : undefined);

/** Any string, untrimmed (the variable's value as given). */
const verbatim = (doc: Doc) => raw.meta({ ...doc, type: "string" });
/** A trimmed string; empty counts as unset. */
const text = (doc: Doc) => raw.transform(blank).meta({ ...doc, type: "string" });
/** A trimmed string with a default for unset or empty. */
const textOr = (fallback: string, doc: Doc) =>
  raw.transform((value) => blank(value) ?? fallback).meta({ ...doc, type: "string" });
/** A number ≥ 0; unset, empty or anything else is the default. */
const count = (fallback: number, doc: Doc) =>
  z
    .preprocess(blank, z.coerce.number().nonnegative().default(fallback))
    .catch(fallback)
    .meta({ ...doc, type: "number" });
/** A number > 0, else the default (the rate limits). */
const positive = (fallback: number, doc: Doc) =>
  z
    .preprocess(blank, z.coerce.number().positive().default(fallback))
    .catch(fallback)
    .meta({ ...doc, type: "number" });
/** On unless set to exactly `off`. */
const onUnlessOff = (doc: Doc) =>
  raw.transform((value) => value !== "off").meta({ ...doc, type: "on | off", shown: "on" });
/** A list: comma (or space) separated, trimmed, empty entries dropped. */
const list = (separator: RegExp, doc: Doc, lower = false) =>
  raw
    .transform((value) =>
      (value ?? "")
        .split(separator)
        .map((entry) => (lower ? entry.trim().toLowerCase() : entry.trim()))
        .filter(Boolean),
    )
    .meta({ ...doc, type: "list", shown: doc.shown ?? "—" });
const providerUrl = (name: string, url: string) =>
  raw
    .transform((value) => value ?? url)
    .meta({ section: "resolver", type: "URL", description: `Base URL of ${name}.` });

export const envSchema = z.object({
  // Server
  PORT: raw
    .transform((value) => value ?? "3000")
    .meta({ section: "server", type: "number", description: "Port `npm start` (server.ts) listens on." }),
  HOST: raw
    .transform((value) => value || undefined)
    .meta({
      section: "server",
      type: "string",
      shown: "all interfaces",
      description: "Address `npm start` (server.ts) listens on.",
    }),
  TRUSTED_PROXY_HOPS: raw
    .transform((value, ctx) => {
      const given = value?.trim();
      if (!given) return 0;
      if (/^\d+$/.test(given) && Number(given) <= 10) return Number(given);
      ctx.addIssue({
        code: "custom",
        message: `TRUSTED_PROXY_HOPS must be a whole number from 0 to 10, not "${given}".`,
      });
      return z.NEVER;
    })
    .meta({
      section: "server",
      type: "0–10",
      description:
        "How many reverse proxies in front of `server.ts` (`npm start`, the Docker image) append the client's address to `X-Forwarded-For`. `0`: no proxy is trusted; the client address is the connection's own, and `X-Forwarded-For`, `X-Forwarded-Host`, `X-Forwarded-Proto`, `X-Forwarded-Port`, `X-Real-IP` and `Forwarded` are dropped before anything reads them. `N` (1–10): the address is the `N`th `X-Forwarded-For` entry from the right, and the forwarded host and scheme are believed. Any other value stops the server at start-up. See [the client address](#the-client-address).",
    }),
  SITE_URL: text({
    section: "server",
    shown: "`http://localhost:$PORT`",
    description: "Public origin of the service; local upload URLs point at `$SITE_URL/storage/upload/…`.",
  }),
  OAUTH_CLIENT_METADATA_ALLOW_HOSTS: list(
    /[\s,]+/,
    {
      section: "server",
      shown: "—",
      description:
        "Tests only: hosts whose OAuth client metadata documents may be fetched from a private address (still https, no redirects). Ignored in production.",
    },
    true,
  ),
  CORS_ORIGINS: raw
    .transform((value) => value ?? "")
    .meta({
      section: "server",
      type: "list | *",
      shown: "— (none)",
      description:
        "Origins whose browser apps may call `/api/v1` and `/api/agent` with a Bearer token: a comma list of exact origins (`https://app.example.org,http://localhost:5173`) or `*`. Never with cookies.",
    }),
  REQUIRE_SERVER_DATABASE: raw
    .transform((value) => value === "1")
    .meta({
      section: "server",
      type: "1",
      shown: "—",
      description: "`1`: refuse the embedded database and generated secrets (the Docker image sets it).",
    }),

  // Database
  DATABASE_URL: text({
    section: "database",
    description: "A Postgres server (15+; Supabase works: use its pooler URL). Unset: the embedded PGlite.",
  }),
  PGLITE_DIR: text({
    section: "database",
    shown: "`.data/pglite`",
    description: "Folder of the embedded database (`memory://` for a throwaway one).",
  }),
  DATABASE_POOL_MAX: count(10, { section: "database", description: "Connections per instance to the server." }),
  DATABASE_PREPARE: raw
    .transform((value) => value !== "false")
    .meta({
      section: "database",
      type: "true | false",
      description: "Set `false` behind a transaction-mode pooler that cannot prepare statements.",
    }),
  PGLITE_STATEMENTS: raw
    .transform((value) => (value === "unprepared" ? "unprepared" : "prepared"))
    .meta({
      section: "database",
      type: "prepared | unprepared",
      description:
        "`unprepared`: the embedded database parses and plans every statement again through PGlite's own `query()` (slower; the bench's comparison, and a fallback).",
    }),
  PGLITE_THREAD: raw
    .transform((value) => (value === "main" ? "main" : "worker"))
    .meta({
      section: "database",
      type: "worker | main",
      description:
        "`main`: the embedded database runs on the server's own thread instead of a worker thread (slower under load: each statement holds the event loop; the bench's comparison, and a fallback where worker threads are unavailable).",
    }),
  TOKEN_CACHE_SECONDS: raw
    .transform((value) => {
      if (value === undefined || value === "") return undefined;
      const seconds = Number(value);
      return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
    })
    .meta({
      section: "database",
      type: "number",
      shown: "`10` (`0` when `DATABASE_PREPARE=false`)",
      description:
        "How long an instance keeps a token look-up (`0`: off). Revocation still takes effect on the next request everywhere (see [benchmark.md](benchmark.md)). A transaction-mode pooler does not deliver LISTEN, hence off there by default.",
    }),

  // Rate limits (the names are registry/limits.ts's RATE_LIMIT_ENV; the type checker holds them together)
  REDIS_URL: raw
    .transform((value) => value?.trim() ?? "")
    .meta({
      section: "limits",
      type: "URL",
      shown: "—",
      description: "Shared rate-limit buckets when several instances serve. Unset: in-process buckets.",
    }),
  RATE_LIMIT_CAPACITY: positive(TOKEN_POLICY.capacity, {
    section: "limits",
    description: "The per-token bucket's size: the burst a token may send at once.",
  }),
  RATE_LIMIT_REFILL_PER_SECOND: positive(TOKEN_POLICY.refillPerSecond, {
    section: "limits",
    description: "The per-token bucket's refill (2/s: 120/min).",
  }),
  RATE_LIMIT_RESOLVER_CAPACITY: positive(RESOLVER_POLICY.capacity, {
    section: "limits",
    description: "The resolver's extra bucket's size (on top of the token's, for `POST /resolve`).",
  }),
  RATE_LIMIT_RESOLVER_REFILL_PER_SECOND: positive(RESOLVER_POLICY.refillPerSecond, {
    section: "limits",
    shown: "`0.1667` (10/60)",
    description: "The resolver's extra bucket's refill (10/min).",
  }),

  // Resolver
  RESOLVER_PROVIDERS: raw
    .transform((value) => (value ?? "").trim().toLowerCase())
    .meta({
      section: "resolver",
      type: "list | off | all",
      shown: "the keyless providers",
      description:
        "Upstream providers `POST /resolve` may ask. Unset: Odesli, iTunes, MusicBrainz + Cover Art Archive, Open Library, Wikipedia and page metadata (Nominatim too when `RESOLVER_CONTACT` is set); `off`: the URL and the offline catalog alone; or a comma list of `odesli,itunes,musicbrainz,openlibrary,wikipedia,nominatim,html`, or `all`. See [catalog.md](catalog.md).",
    }),
  RESOLVER_CONTACT: raw
    .transform((value) => (value ?? "").trim())
    .meta({
      section: "resolver",
      type: "string",
      shown: "—",
      description:
        "Your contact (e-mail or URL), sent in the resolver's User-Agent; also switches Nominatim on (its usage policy asks for one).",
    }),
  RESOLVER_DEADLINE_MS: count(2500, {
    section: "resolver",
    description:
      "One deadline for every upstream request of a resolve, retries included; past it the answer carries what is known.",
  }),
  RESOLVER_BREAKER_FAILURES: count(3, {
    section: "resolver",
    description: "A provider failing this many times in a row (at least 1) is skipped for the cool-down.",
  }),
  RESOLVER_BREAKER_COOLDOWN_MS: count(60_000, {
    section: "resolver",
    description: "How long a provider that keeps failing is skipped.",
  }),
  RESOLVER_USER_AGENT: verbatim({
    section: "resolver",
    shown: "`personal-data-service/0.1 (…)`",
    description:
      "Sent to every provider. MusicBrainz, Nominatim and Wikimedia require a contact: set it to `name/version (contact URL or email)` before enabling them.",
  }),
  RESOLVER_TIMEOUT_MS: count(2000, { section: "resolver", description: "Per-attempt timeout (within the deadline)." }),
  RESOLVER_RETRIES: count(2, {
    section: "resolver",
    description: "Retries after the first attempt, at most 5 (backoff; a `Retry-After` over 3 s gives up).",
  }),
  RESOLVER_MIN_INTERVAL_MS: z.preprocess(blank, z.coerce.number().nonnegative().optional()).catch(undefined).meta({
    section: "resolver",
    type: "number",
    shown: "—",
    description:
      "`0` turns every provider's shared request budget off (tests against a local fixture server); any other value is ignored.",
  }),
  RESOLVER_ODESLI_BUDGET: text({
    section: "resolver",
    shown: "10/60",
    description:
      "Odesli's shared request budget, `requests/seconds` (one bucket for every instance, in the rate-limit store: Redis when `REDIS_URL` is set).",
  }),
  RESOLVER_ITUNES_BUDGET: text({
    section: "resolver",
    shown: "20/60",
    description:
      "iTunes Search's shared request budget, `requests/seconds` (one bucket for every instance, in the rate-limit store: Redis when `REDIS_URL` is set).",
  }),
  RESOLVER_MUSICBRAINZ_BUDGET: text({
    section: "resolver",
    shown: "1/1",
    description:
      "MusicBrainz's shared request budget, `requests/seconds` (one bucket for every instance, in the rate-limit store: Redis when `REDIS_URL` is set).",
  }),
  RESOLVER_OPENLIBRARY_BUDGET: text({
    section: "resolver",
    shown: "1/1",
    description:
      "Open Library's shared request budget, `requests/seconds` (one bucket for every instance, in the rate-limit store: Redis when `REDIS_URL` is set).",
  }),
  RESOLVER_WIKIPEDIA_BUDGET: text({
    section: "resolver",
    shown: "200/1",
    description:
      "Wikipedia's shared request budget, `requests/seconds` (one bucket for every instance, in the rate-limit store: Redis when `REDIS_URL` is set).",
  }),
  RESOLVER_NOMINATIM_BUDGET: text({
    section: "resolver",
    shown: "1/1",
    description:
      "Nominatim's shared request budget, `requests/seconds` (one bucket for every instance, in the rate-limit store: Redis when `REDIS_URL` is set).",
  }),
  CATALOG_WORKER: onUnlessOff({
    section: "resolver",
    description:
      "`off` keeps the catalog's background completion of partial entries out of the server process (then run `npm run worker`).",
  }),
  CATALOG_COMPLETIONS_POLL_MS: count(2000, {
    section: "resolver",
    description: "How often an idle completion worker looks for partial entries due another attempt.",
  }),
  CATALOG_COMPLETION_DEADLINE_MS: count(15_000, {
    section: "resolver",
    description: "The providers' deadline for one background completion (longer than a member's resolve may wait).",
  }),
  RESOLVER_CACHE_TTL_SECONDS: count(7 * 24 * 60 * 60, {
    section: "resolver",
    shown: "`604800` (7 days)",
    description:
      "How long the resolver reuses a provider's answer from its cache in the database (shared by instances, kept across restarts, purged by upkeep); `0` turns it off. Outages are never cached. See [catalog.md](catalog.md#the-resolution-cache).",
  }),
  RESOLVER_CACHE_FAILURE_TTL_SECONDS: count(10 * 60, {
    section: "resolver",
    shown: "`600` (10 min)",
    description: "How long a failed look-up (not found, refused) is reused from the cache; `0` turns it off.",
  }),
  RESOLVER_ALLOW_PRIVATE_HOSTS: list(
    /[\s,]+/,
    {
      section: "resolver",
      description:
        "Hosts exempt from the SSRF guard of article fetches (tests use `127.0.0.1`). Leave unset in production.",
    },
    true,
  ),
  RESOLVER_ODESLI_URL: providerUrl("Odesli", "https://api.song.link/v1-alpha.1"),
  RESOLVER_ITUNES_URL: providerUrl("the iTunes Search API", "https://itunes.apple.com"),
  RESOLVER_MUSICBRAINZ_URL: providerUrl("MusicBrainz", "https://musicbrainz.org/ws/2"),
  RESOLVER_COVERARTARCHIVE_URL: providerUrl("the Cover Art Archive (with MusicBrainz)", "https://coverartarchive.org"),
  RESOLVER_OPENLIBRARY_URL: providerUrl("Open Library", "https://openlibrary.org"),
  RESOLVER_WIKIPEDIA_URL: providerUrl(
    "Wikipedia (`{lang}` is the article's language)",
    "https://{lang}.wikipedia.org/api/rest_v1",
  ),
  RESOLVER_NOMINATIM_URL: providerUrl("Nominatim (e.g. a self-hosted one)", "https://nominatim.openstreetmap.org"),
  RESOLVER_HTML_URL: providerUrl(
    "a server that replays every page fetch of the page-metadata provider (tests, `npm run eval:resolver`); unset: the page itself",
    "",
  ),

  // Uploads
  UPLOADS_DIR: text({
    section: "uploads",
    shown: "`.data/uploads`",
    description: "Where the local storage driver keeps upload bytes.",
  }),
  UPLOAD_SIGNING_SECRET: text({
    section: "uploads",
    shown: "generated",
    description:
      "HMAC key of local upload URLs (≥ 32 characters). Unset: generated once into `.data/upload-signing-secret` (mode 0600). Set it when several instances serve.",
  }),
  S3_BUCKET: text({
    section: "uploads",
    description:
      "Selects the S3-compatible driver (AWS S3, Supabase Storage's S3 endpoint, R2, MinIO). Unset: local disk.",
  }),
  S3_ENDPOINT: text({
    section: "uploads",
    description: "Endpoint of a non-AWS store (path-style addressing is then used).",
  }),
  S3_REGION: textOr("us-east-1", { section: "uploads", description: "The store's region." }),
  S3_FORCE_PATH_STYLE: raw
    .transform((value) => (value ? value === "true" : undefined))
    .meta({
      section: "uploads",
      type: "true | false",
      shown: "`true` with `S3_ENDPOINT`",
      description: "Path-style addressing (the bucket in the path), which most S3-compatible stores need.",
    }),
  S3_ACCESS_KEY_ID: text({
    section: "uploads",
    description:
      "Credentials (with `S3_SECRET_ACCESS_KEY`); unset: the AWS SDK's default chain (`AWS_*` variables, profiles, instance roles).",
  }),
  S3_SECRET_ACCESS_KEY: text({ section: "uploads", description: "Credentials (with `S3_ACCESS_KEY_ID`)." }),
  S3_SESSION_TOKEN: text({ section: "uploads", description: "A session token, with temporary credentials." }),

  // Sign-in
  NEXT_PUBLIC_SUPABASE_URL: text({
    section: "auth",
    description:
      "A Supabase project: `/settings` signs in through its Auth (with its publishable key). Unset: built-in email + password.",
  }),
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: text({ section: "auth", description: "The project's publishable key." }),
  NEXT_PUBLIC_SUPABASE_ANON_KEY: text({
    section: "auth",
    description: "Accepted for `NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY` (legacy).",
  }),
  SUPABASE_JWT_SECRET: text({
    section: "auth",
    description: "Legacy HS256 JWT secret; asymmetric keys are read from the project's JWKS.",
  }),
  SUPABASE_SECRET_KEY: text({ section: "auth", description: "Admin API key, for deleting accounts in Supabase mode." }),
  SUPABASE_SERVICE_ROLE_KEY: text({ section: "auth", description: "Accepted for `SUPABASE_SECRET_KEY` (legacy)." }),

  // Webhooks
  WEBHOOK_SECRETS_KEY: text({
    section: "webhooks",
    shown: "generated",
    description:
      "Key (≥ 32 characters) that encrypts webhook signing secrets at rest (AES-256-GCM). Unset: generated once into `.data/webhook-secrets-key` (mode 0600); refused in production (see [deploy.md](deploy.md)). Set it when several instances serve, and keep it: without it stored secrets cannot be read.",
  }),
  WEBHOOKS_WORKER: onUnlessOff({
    section: "webhooks",
    description: "`off` keeps the delivery worker out of the server process (then run `npm run worker` somewhere).",
  }),
  WEBHOOKS_POLL_MS: raw
    .transform((value) => Number(value) || 250)
    .meta({ section: "webhooks", type: "number", description: "How often an idle worker looks for due deliveries." }),
  WEBHOOKS_ENDPOINTS: list(/,/, {
    section: "webhooks",
    shown: "— (all)",
    description:
      "A comma list of endpoint ids: this worker delivers only for them (to split endpoints across workers).",
  }),
  WEBHOOKS_ALLOW_HTTP: raw
    .transform((value) => Boolean(value))
    .meta({
      section: "webhooks",
      type: "any value",
      shown: "—",
      description: "Development only: endpoints may be plain `http://` on a loopback host (127.0.0.1, ::1, localhost).",
    }),

  // Upkeep
  CRON_SECRET: text({
    section: "upkeep",
    description: "Bearer secret of `GET /api/cron/upkeep`; unset: the route answers 503.",
  }),
  UPKEEP_TIMER: onUnlessOff({ section: "upkeep", description: "`off` stops the hourly in-process upkeep." }),

  // Set by the platform or the build
  NODE_ENV: verbatim({
    section: "platform",
    description: "`production` under `npm start`, `next start` and on Vercel (with `VERCEL`, it refuses local state).",
  }),
  VERCEL: verbatim({
    section: "platform",
    description:
      "Set by Vercel (`1`): the client address is `X-Vercel-Forwarded-For`, there is no upkeep timer, and production refuses local state.",
  }),
  NEXT_OUTPUT: verbatim({
    section: "platform",
    description:
      "`standalone`: Next's self-contained server output (the Dockerfile, `npm start` and the browser tests build so; scripts/next-build.ts).",
  }),
  NEXT_PROFILE_BUILD: verbatim({
    section: "platform",
    description: "`1`: an unminified build into `.next-profile` for `npm run bench:profile`.",
  }),
});

export type Config = z.output<typeof envSchema>;
export type Name = keyof Config;

const parsed = new Map<Name, { raw: Raw; value: unknown }>();

/**
 * One variable, parsed by the schema: from the process's environment, or from `env` (tests pass
 * plain objects). A value the schema refuses (TRUSTED_PROXY_HOPS=eleven) throws its message.
 */
export function setting<K extends Name>(name: K, env: Env = process.env): Config[K] {
  const given = env[name];
  const hit = parsed.get(name);
  if (hit && hit.raw === given) return hit.value as Config[K];
  const result = envSchema.shape[name].safeParse(given);
  if (!result.success) throw new Error(result.error.issues.map((issue) => issue.message).join("; "));
  parsed.set(name, { raw: given, value: result.data });
  return result.data as Config[K];
}

/** Sets variables that are not set yet (server.ts, for the Next server it starts); `force` overwrites. */
export function presetEnv(values: Record<string, string>, force: readonly string[] = []): void {
  for (const [name, value] of Object.entries(values)) {
    if (force.includes(name) || process.env[name] === undefined) Object.assign(process.env, { [name]: value });
  }
}
