// The cost of the activity ledger (issue 33: the actor and the previous row image of each credential's
// write) on the create and update rows: one build, one seeded database, the ledger on and off in turn
// (ABBA order over BENCH_AB_ROUNDS rounds, the machine's drift spread over both), each variant on a fresh
// server with its own warm-up. Prints requests/s and CPU per request per variant, and on/off ratios of the
// medians. "off" is the store as it was before issue 33: the event function of
// 20261126130000_write_every_event.sql (no actor, no previous values, no ledger entry), no actor column
// defaults, and the ledger's own triggers (deletions, webhook endpoints) disabled.
// Run: BENCH_DATABASES=postgres BENCH_CATALOG=1000 node bench/activity-ab.ts  (the ledger comes from the
// worktree's migrations, applied when the database is seeded)
import fs from "node:fs";
import { asService } from "../lib/db/index.ts";
import { buildIfStale } from "../scripts/next-build.ts";
import { offlineEnv, rateLimitEnv, settings } from "./config.ts";
import { createTarget, type Target } from "./databases.ts";
import { measureApi, probe, type Scenario } from "./load.ts";
import { apiScenarios, CREATE_LABEL, UPDATE_LABEL } from "./scenarios.ts";
import { seed } from "./seed.ts";
import { startServer } from "./server.ts";
import type { Measurement } from "./stats.ts";
import { warmUntilSteady } from "./warm-up.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 2;
type Variant = "on" | "off";

/** The event function before the ledger, as its migration wrote it. */
const WITHOUT_LEDGER = (() => {
  const sql = fs.readFileSync(
    new URL("../supabase/migrations/20261126130000_write_every_event.sql", import.meta.url),
    "utf8",
  );
  const start = sql.indexOf("create or replace function app_private.emit_webhook_event()");
  return sql.slice(start, sql.indexOf("end $$;", start) + "end $$;".length);
})();
const ACTOR_COLUMNS = ["actor_kind", "actor_id", "actor_surface"];

/** What "on" puts back: the event function and the actor defaults as the migrations left them. */
let ledger: { emit: string; defaults: { column: string; expr: string }[] } | undefined;

async function setLedger(target: Target, variant: Variant): Promise<void> {
  await target.open();
  await asService(async (tx) => {
    if (!ledger) {
      const [emit] = await tx.query<{ def: string }>(
        "select pg_get_functiondef('app_private.emit_webhook_event()'::regprocedure) as def",
      );
      const defaults = await tx.query<{ column: string; expr: string }>(
        `select a.attname as column, pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
           join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
          where d.adrelid = 'app_private.webhook_events'::regclass and a.attname = any ($1)`,
        [ACTOR_COLUMNS],
      );
      ledger = { emit: emit?.def ?? "", defaults };
    }
    await tx.query(variant === "on" ? ledger.emit : WITHOUT_LEDGER);
    for (const column of ACTOR_COLUMNS) {
      const expr = ledger.defaults.find((d) => d.column === column)?.expr;
      await tx.query(
        `alter table app_private.webhook_events alter column ${column} ${variant === "on" && expr ? `set default ${expr}` : "drop default"}`,
      );
    }
    const triggers = await tx.query<{ tgname: string; rel: string }>(
      // The ledger's own triggers: the per-source functions the generator writes (app_private.activity_<operation>).
      `select t.tgname, t.tgrelid::regclass::text as rel from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and p.pronamespace = 'app_private'::regnamespace and p.proname like 'activity\\_%'`,
    );
    for (const t of triggers)
      await tx.query(`alter table ${t.rel} ${variant === "on" ? "enable" : "disable"} trigger "${t.tgname}"`);
  });
  await target.close();
}

async function measureVariant(target: Target, rows: readonly Scenario[]): Promise<Measurement[]> {
  const server = await startServer({ ...target.env, ...rateLimitEnv, ...offlineEnv, REDIS_URL: "" });
  const cpu = { app: { group: server.group }, dbPids: target.dbPids };
  const measure = async (scenario: Scenario, seconds?: number) => {
    const m = await measureApi(server.url, cpu, scenario, seconds);
    await server.drain();
    return m;
  };
  try {
    const out: Measurement[] = [];
    for (const scenario of rows) {
      const first = await probe(server.url, scenario);
      if (first.status !== scenario.expect) throw new Error(`${scenario.label}: ${first.status} ${first.body}`);
      const warmUp = await warmUntilSteady((seconds) => measure(scenario, seconds));
      await target.settle();
      out.push({ ...(await measure(scenario)), warmUp });
    }
    return out;
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

// BENCH_REUSE_BUILD=1: measure the build at hand (both variants run the same one, so it need not be current).
if (!process.env.BENCH_REUSE_BUILD) buildIfStale();
for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const seeded = await seed();
    await target.close();
    const rows = apiScenarios(seeded).scenarios.filter((s) => s.label === CREATE_LABEL || s.label === UPDATE_LABEL);
    const results: Record<Variant, Measurement[]> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of (round % 2 ? ["off", "on"] : ["on", "off"]) as Variant[]) {
        await setLedger(target, variant);
        const measured = await measureVariant(target, rows);
        results[variant].push(...measured);
        for (const m of measured) {
          console.log(
            `${name} round ${round + 1} ${variant.padEnd(3)} ${m.label.padEnd(26)} ${m.requestsPerSecond} req/s, ${m.cpuMsPerRequest.total} ms CPU/req, p50 ${m.p50Ms} ms, load ${m.load1}, unexpected ${m.unexpected}`,
          );
        }
      }
    }
    for (const row of rows) {
      const of = (variant: Variant) => results[variant].filter((m) => m.label === row.label);
      const rps = (variant: Variant) => median(of(variant).map((m) => m.requestsPerSecond));
      const cpu = (variant: Variant) => median(of(variant).map((m) => m.cpuMsPerRequest.total));
      console.log(
        `${name} ${row.label}: median req/s on ${rps("on")} / off ${rps("off")} = ${(rps("on") / rps("off")).toFixed(3)}; ` +
          `CPU ms/req on ${cpu("on")} / off ${cpu("off")} = ${(cpu("on") / cpu("off")).toFixed(3)}`,
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
