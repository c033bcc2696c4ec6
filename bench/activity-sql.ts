// The activity triggers' own cost per write, as the database reports it (EXPLAIN ANALYZE times each trigger):
// the statements of the create and update rows (insert an item, change a collection's description), run as
// the member with a token actor as the pipeline runs them. Wall-clock A/B of whole requests drowns in this
// shared machine's load; the trigger's own execution time does not depend on commits or the load generator.
// Prints the activity trigger's mean time per write beside the statement's (all its triggers included),
// to set against a bench row's CPU per request.
// Run: BENCH_DATABASES=postgres,pglite BENCH_MEMBERS=5 BENCH_CATALOG=1000 node bench/activity-sql.ts
import { randomUUID } from "node:crypto";
import { type Actor, asMember } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { seed } from "./seed.ts";

const WRITES = Number(process.env.BENCH_SQL_WRITES) || 400;

interface Plan {
  "Execution Time": number;
  Triggers?: { "Trigger Name": string; Time: number }[];
}

/** The statement's execution time and the activity trigger's share of it, in ms. */
const timesOf = (rows: { "QUERY PLAN": unknown }[]) => {
  const raw = rows[0]?.["QUERY PLAN"];
  const [plan] = (typeof raw === "string" ? JSON.parse(raw) : raw) as Plan[];
  if (!plan) throw new Error("no plan");
  const activity = (plan.Triggers ?? [])
    .filter((t) => t["Trigger Name"].startsWith("activity_"))
    .reduce((sum, t) => sum + t.Time, 0);
  return { total: plan["Execution Time"], activity };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const { members, catalogIds } = await seed();
    const actor: Actor = { kind: "token", id: randomUUID(), surface: "rest" };
    const create = async (i: number) => {
      const member = members[i % members.length];
      if (!member) throw new Error("no member");
      const body = JSON.stringify({
        collection_id: member.collectionIds[i % member.collectionIds.length],
        song_id: catalogIds[i % catalogIds.length],
      });
      return asMember(
        member.id,
        async (tx) =>
          timesOf(
            await tx.query(
              `explain (analyze, format json) insert into public.items as t (collection_id, song_id) select collection_id, song_id
               from jsonb_populate_record(null::public.items, $1::jsonb) returning to_jsonb(t) as r`,
              [body],
            ),
          ),
        { actor },
      );
    };
    const update = async (i: number) => {
      const member = members[i % members.length];
      if (!member) throw new Error("no member");
      return asMember(
        member.id,
        async (tx) =>
          timesOf(
            await tx.query(
              `explain (analyze, format json) update public.collections t set (description) = (select description from jsonb_populate_record(t, $1::jsonb))
              where t.id = $2 returning to_jsonb(t) as r`,
              [
                JSON.stringify({ description: `d${i}-${randomUUID()}` }),
                member.collectionIds[i % member.collectionIds.length],
              ],
            ),
          ),
        { actor },
      );
    };
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
