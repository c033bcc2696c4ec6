// Versions of the activity ledger side by side: bench/activity-sql.ts's statements (insert an item, change a
// collection's description, as a member with a token actor) with each version taking turns on one seeded
// database (BENCH_VARIANT_ROUNDS rounds, the order reversed every other round, 30 writes of warm-up a turn).
// A version is a SQL file run as the service before its turn: it installs its functions, triggers, columns
// and indexes (every trigger named activity_% is dropped first, so a file without any measures the ledger
// off). Prints, per version and round, the median over BENCH_SQL_WRITES writes of the activity triggers' own
// time, of the whole statement's (EXPLAIN ANALYZE: every trigger of the statement, the events' included) and
// of the whole transaction (wall clock from this process: its commit too; on PGlite, in this process, that is
// CPU time), then the median and range of those over the rounds, and the WAL bytes a write (create / update). Used for bench/results/2026-11-27-activity-cost.md.
// Run: BENCH_DATABASES=pglite,postgres BENCH_MEMBERS=5 BENCH_CATALOG=1000 node bench/activity-variants.ts a.sql b.sql
import fs from "node:fs";
import path from "node:path";
import { getDb } from "../lib/db/index.ts";
import { activityWrites, type WriteTimes } from "./activity-writes.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { seed } from "./seed.ts";

const WRITES = Number(process.env.BENCH_SQL_WRITES) || 200;
const ROUNDS = Number(process.env.BENCH_VARIANT_ROUNDS) || 4;
const files = process.argv.slice(2);

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? 0;
const median = (values: number[]) => quantile(values, 0.5);

/** The whole transaction's wall-clock time beside the plan's (its commit, WAL flush included), ms. */
const timed = async (run: () => Promise<WriteTimes>) => {
  const started = performance.now();
  const times = await run();
  return { ...times, transaction: performance.now() - started };
};

const DROP = `do $$ declare t record; begin
  for t in select tgname, tgrelid::regclass as rel from pg_trigger where not tgisinternal and tgname like 'activity\\_%' loop
    execute format('drop trigger %I on %s', t.tgname, t.rel);
  end loop; end $$;`;

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const { members, catalogIds } = await seed();
    const writes = activityWrites({ members, catalogIds });
    const create = (i: number) => timed(() => writes.create(i));
    const update = (i: number) => timed(() => writes.update(i));
    // Per version: each turn's median and 10th percentile (µs) of the trigger's and the statement's time.
    const SERIES = [
      "create",
      "update",
      "create statement",
      "update statement",
      "create transaction",
      "update transaction",
    ] as const;
    const results = new Map<string, Record<(typeof SERIES)[number], { p50: number[]; p10: number[] }>>();
    let n = 0;
    // WAL bytes per write (the measured writes only: what the commit has to write and flush).
    const wal = new Map<string, [number, number][]>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...files].reverse() : files;
      for (const file of order) {
        const sql = fs.readFileSync(file, "utf8");
        await (await getDb()).transaction(async (tx) => {
          await tx.exec(DROP);
          await tx.exec(sql);
        });
        for (let i = 0; i < 30; i++) await create(n++);
        for (let i = 0; i < 30; i++) await update(n++);
        const c = [];
        const u = [];
        const lsn = async () =>
          (await (await getDb()).query<{ lsn: string }>("select pg_current_wal_insert_lsn()::text as lsn"))[0]?.lsn;
        const walSince = async (from: string | undefined) =>
          Number(
            (
              await (
                await getDb()
              ).query<{ bytes: string }>(
                "select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::text as bytes",
                [from],
              )
            )[0]?.bytes,
          ) / WRITES;
        const beforeCreates = await lsn();
        for (let i = 0; i < WRITES; i++) c.push(await create(n++));
        const createWal = await walSince(beforeCreates);
        const beforeUpdates = await lsn();
        for (let i = 0; i < WRITES; i++) u.push(await update(n++));
        const updateWal = await walSince(beforeUpdates);
        wal.set(file, [...(wal.get(file) ?? []), [createWal, updateWal]]);
        const turn = {
          create: c.map((m) => m.activity * 1000),
          update: u.map((m) => m.activity * 1000),
          "create statement": c.map((m) => m.total * 1000),
          "update statement": u.map((m) => m.total * 1000),
          "create transaction": c.map((m) => m.transaction * 1000),
          "update transaction": u.map((m) => m.transaction * 1000),
        };
        const r = results.get(file) ?? {
          create: { p50: [], p10: [] },
          update: { p50: [], p10: [] },
          "create statement": { p50: [], p10: [] },
          "update statement": { p50: [], p10: [] },
          "create transaction": { p50: [], p10: [] },
          "update transaction": { p50: [], p10: [] },
        };
        for (const key of SERIES) {
          r[key].p50.push(median(turn[key]));
          r[key].p10.push(quantile(turn[key], 0.1));
        }
        results.set(file, r);
        console.log(
          `${name} round ${round + 1} ${path.basename(file).padEnd(24)} ${SERIES.map((key) => `${key} ${r[key].p50.at(-1)?.toFixed(0)}`).join(", ")} µs (medians)`,
        );
      }
    }
    console.log(
      `${name}: median over the rounds of each turn's median [range], and of each turn's 10th percentile, µs`,
    );
    for (const file of files) {
      const r = results.get(file);
      if (!r) continue;
      const f = (key: (typeof SERIES)[number]) =>
        `${key} ${median(r[key].p50).toFixed(0)} [${Math.min(...r[key].p50).toFixed(0)}–${Math.max(...r[key].p50).toFixed(0)}] p10 ${median(r[key].p10).toFixed(0)}`;
      const bytes = wal.get(file) ?? [];
      console.log(
        `${name} ${path.basename(file).padEnd(24)} ${SERIES.map(f).join("; ")}; WAL bytes a write ${median(bytes.map((b) => b[0])).toFixed(0)} / ${median(bytes.map((b) => b[1])).toFixed(0)}`,
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
