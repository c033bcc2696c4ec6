// The activity triggers' own cost per write, as the database reports it (EXPLAIN ANALYZE times each trigger):
// the statements of the create and update rows (insert an item, change a collection's description), run as
// the member with a token actor as the pipeline runs them. Wall-clock A/B of whole requests drowns in this
// shared machine's load; the trigger's own execution time does not depend on commits or the load generator.
// Prints the activity trigger's mean time per write beside the statement's (all its triggers included),
// to set against a bench row's CPU per request.
// Run: BENCH_DATABASES=postgres,pglite BENCH_MEMBERS=5 BENCH_CATALOG=1000 node bench/activity-sql.ts
import { activityWrites } from "./activity-writes.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { seed } from "./seed.ts";

const WRITES = Number(process.env.BENCH_SQL_WRITES) || 400;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const { create, update } = activityWrites(await seed());
    for (const [label, write] of [
      ["create", create],
      ["update", update],
    ] as const) {
      const measured = [];
      for (let i = 0; i < WRITES; i++) measured.push(await write(i));
      const total = median(measured.map((m) => m.total));
      const activity = median(measured.map((m) => m.activity));
      console.log(
        `${name} ${label}: median statement ${(total * 1000).toFixed(0)} µs, of which the activity trigger ${(activity * 1000).toFixed(0)} µs (${((activity / total) * 100).toFixed(1)}%), over ${WRITES} writes`,
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
