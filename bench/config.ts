import { parseArgs } from "node:util";
import { RATE_LIMIT_ENV } from "../registry/limits.ts";

/**
 * Command-line options of `npm run bench -- …`: `--rows get,search MCP` runs only the API rows whose
 * label holds every word of one of the comma-separated filters ("growth", "webhooks", "ceiling" and
 * "cold" name those passes; without --rows everything runs); `--soak-minutes N` repeats the verb
 * rows for N minutes and reports the server's RSS after each round.
 */
const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: { rows: { type: "string" }, "soak-minutes": { type: "string" } },
  strict: false,
});

/**
 * Settings of one bench run (a full run, both databases and the growth pass, takes about fifteen
 * minutes on two cores); every one can be changed by an environment variable.
 */
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const sizes = (name: string, fallback: number[]) =>
  process.env[name]
    ? (process.env[name] ?? "")
        .split(",")
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0)
    : fallback;

export const settings = {
  /** Concurrent requests, for the API (autocannon connections) and the ceiling alike. */
  connections: num("BENCH_CONNECTIONS", 50),
  /** Seconds per measurement: 15, as in issue 14's reference table. */
  seconds: num("BENCH_SECONDS", 15),
  /** The warm-up before each row (server or driver loop): windows of this many seconds until requests/s is level (warm-up.ts)… */
  warmupWindowSeconds: num("BENCH_WARMUP_WINDOW_SECONDS", 3),
  /** …for at most this long. */
  warmupMaxSeconds: num("BENCH_WARMUP_MAX_SECONDS", 30),
  members: num("BENCH_MEMBERS", 100),
  /** Rows each member owns in each member table; a list page is 50, so one more page exists. */
  rowsPerMember: num("BENCH_ROWS_PER_MEMBER", 60),
  catalogEntries: num("BENCH_CATALOG", 100_000),
  /** Rows the growth member owns in collections and in items, step by step. */
  growthServer: sizes("BENCH_GROWTH_SERVER", [1_000, 10_000, 100_000]),
  growthPglite: sizes("BENCH_GROWTH_PGLITE", [1_000, 10_000, 100_000]),
  databases: (process.env.BENCH_DATABASES ?? "postgres,pglite").split(",").map((s) => s.trim()),
  /** Seconds per verb row (every verb on REST, invoke and MCP: 21 rows per database) and its one warm-up window. */
  verbSeconds: num("BENCH_VERB_SECONDS", 10),
  verbWarmupSeconds: num("BENCH_VERB_WARMUP_SECONDS", 4),
  /** Items per member made for the delete rows (a third per surface; a delete row stops being measured once spent). */
  deletePerMember: num("BENCH_DELETE_PER_MEMBER", 1200),
  /** Fresh processes timed per cold-start kind. */
  coldStarts: num("BENCH_COLD_STARTS", 3),
  rows:
    typeof args.rows === "string"
      ? args.rows
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  soakMinutes: Number(args["soak-minutes"] ?? process.env.BENCH_SOAK_MINUTES ?? 0) || 0,
  adminUrl: process.env.BENCH_ADMIN_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  pgliteDir: process.env.BENCH_PGLITE_DIR || ".data/bench-pglite",
};

/**
 * The per-token buckets of the service are sized for people and assistants (120/min), far below
 * what one token sees under a load test; the bench raises them by configuration and says so.
 */
export const rateLimitEnv: Record<string, string> = Object.fromEntries(
  Object.values(RATE_LIMIT_ENV).map((name) => [name, "1000000"]),
);

/** The bench measures the service, not the internet: resolves answer from the offline catalog. */
export const offlineEnv: Record<string, string> = { RESOLVER_PROVIDERS: "off" };
