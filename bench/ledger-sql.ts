// What the activity ledger costs the create and update rows' statements, as the database times them
// (EXPLAIN ANALYZE's execution time, every trigger included): insert an item, change a collection's
// description, as a member with a token actor as the pipeline runs them, with the ledger on and off in turn
// on one seeded database (bench/ledger-switch.ts; ABBA over BENCH_AB_ROUNDS rounds). No server, no load
// generator and no commit in the figure, so it moves far less with the machine's load than
// bench/activity-ab.ts's whole requests; set its µs against a row's CPU per request.
// Run: BENCH_DATABASES=postgres,pglite BENCH_MEMBERS=5 BENCH_CATALOG=1000 node bench/ledger-sql.ts
import { randomUUID } from "node:crypto";
import { type Actor, asMember } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { executionMicros } from "./explain.ts";
import { type LedgerVariant, setLedger } from "./ledger-switch.ts";
import { seed } from "./seed.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const WRITES = Number(process.env.BENCH_SQL_WRITES) || 300;
const WARM_UP = 30;
const percentile10 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 10)] ?? 0;

function writes({ members, catalogIds }: Awaited<ReturnType<typeof seed>>) {
  const actor: Actor = { kind: "token", id: randomUUID(), surface: "rest" };
  const memberAt = (i: number) => {
    const member = members[i % members.length];
    if (!member) throw new Error("no member");
    return member;
  };
  const explain = (memberId: string, sql: string, params: unknown[]) =>
    asMember(memberId, async (tx) => executionMicros(await tx.query(`explain (analyze, format json) ${sql}`, params)), {
      actor,
    });
  return {
    create: (i: number) => {
      const member = memberAt(i);
      const body = JSON.stringify({
        collection_id: member.collectionIds[i % member.collectionIds.length],
        song_id: catalogIds[i % catalogIds.length],
      });
      return explain(
        member.id,
        `insert into public.items as t (collection_id, song_id) select collection_id, song_id
           from jsonb_populate_record(null::public.items, $1::jsonb) returning to_jsonb(t) as r`,
        [body],
      );
    },
    update: (i: number) => {
      const member = memberAt(i);
      return explain(
        member.id,
        `update public.collections t set (description) = (select description from jsonb_populate_record(t, $1::jsonb))
          where t.id = $2 returning to_jsonb(t) as r`,
        [
          JSON.stringify({ description: `d${i}-${randomUUID()}` }),
          member.collectionIds[i % member.collectionIds.length],
        ],
      );
    },
  };
}

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const write = writes(await seed());
    await target.close();
    const turns: Record<string, { median: number; p10: number }[]> = {};
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of (round % 2 ? ["off", "on"] : ["on", "off"]) as LedgerVariant[]) {
        await setLedger(target, variant);
        await target.open();
        for (const kind of ["create", "update"] as const) {
          for (let i = 0; i < WARM_UP; i++) await write[kind](n++);
          const times: number[] = [];
          for (let i = 0; i < WRITES; i++) times.push(await write[kind](n++));
          const key = `${kind} ${variant}`;
          turns[key] = [...(turns[key] ?? []), { median: median(times), p10: percentile10(times) }];
        }
        await target.close();
      }
    }
    for (const kind of ["create", "update"]) {
      const of = (variant: string) => turns[`${kind} ${variant}`] ?? [];
      const on = median(of("on").map((t) => t.median));
      const off = median(of("off").map((t) => t.median));
      const onP10 = median(of("on").map((t) => t.p10));
      const offP10 = median(of("off").map((t) => t.p10));
      console.log(
        `${name} ${kind}: statement µs, median of turn medians: on ${on.toFixed(0)} / off ${off.toFixed(0)} (+${(on - off).toFixed(0)}); ` +
          `p10 on ${onP10.toFixed(0)} / off ${offP10.toFixed(0)} (+${(onP10 - offP10).toFixed(0)}); ` +
          `turns on [${of("on").map((t) => t.median.toFixed(0))}] off [${of("off").map((t) => t.median.toFixed(0))}]`,
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
