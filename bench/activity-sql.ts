// The activity triggers' own cost per write, without HTTP: the statements of the create and update rows
// (insert an item, change a collection's description) run as the member with a token actor, as the
// pipeline runs them, one transaction each, sequentially; the triggers enabled and disabled in turn
// (ABBA over BENCH_AB_ROUNDS rounds). Prints µs per write per variant and the difference, to set beside
// a row's CPU per request. Run: BENCH_DATABASES=postgres BENCH_MEMBERS=5 BENCH_CATALOG=1000 node bench/activity-sql.ts
import { randomUUID } from "node:crypto";
import { type Actor, asMember, asService } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { seed } from "./seed.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 4;
const WRITES = Number(process.env.BENCH_SQL_WRITES) || 400;
type Variant = "on" | "off";

async function setTriggers(variant: Variant): Promise<void> {
  await asService(async (tx) => {
    const triggers = await tx.query<{ tgname: string; rel: string }>(
      `select tgname, tgrelid::regclass::text as rel from pg_trigger
        where not tgisinternal and tgfoid = 'app_private.record_activity()'::regprocedure`,
    );
    for (const t of triggers) await tx.query(`alter table ${t.rel} ${variant === "on" ? "enable" : "disable"} trigger "${t.tgname}"`);
  });
}

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
      const body = JSON.stringify({ collection_id: member.collectionIds[i % member.collectionIds.length], song_id: catalogIds[i % catalogIds.length] });
      await asMember(
        member.id,
        (tx) =>
          tx.query(
            `insert into public.items as t (collection_id, song_id) select collection_id, song_id
               from jsonb_populate_record(null::public.items, $1::jsonb) returning to_jsonb(t) as r`,
            [body],
          ),
        { actor },
      );
    };
    const update = async (i: number) => {
      const member = members[i % members.length];
      if (!member) throw new Error("no member");
      await asMember(
        member.id,
        (tx) =>
          tx.query(
            `update public.collections t set (description) = (select description from jsonb_populate_record(t, $1::jsonb))
              where t.id = $2 returning to_jsonb(t) as r`,
            [JSON.stringify({ description: `d${i}-${randomUUID()}` }), member.collectionIds[i % member.collectionIds.length]],
          ),
        { actor },
      );
    };
    const perWrite: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of (round % 2 ? ["off", "on"] : ["on", "off"]) as Variant[]) {
        await setTriggers(variant);
        for (const [label, write] of [["create", create], ["update", update]] as const) {
          const started = process.hrtime.bigint();
          for (let i = 0; i < WRITES; i++) await write(round * WRITES + i);
          const us = Number(process.hrtime.bigint() - started) / 1000 / WRITES;
          (perWrite[`${label} ${variant}`] ??= []).push(us);
          console.log(`${name} round ${round + 1} ${variant.padEnd(3)} ${label}: ${us.toFixed(0)} µs per write`);
        }
      }
    }
    for (const label of ["create", "update"]) {
      const on = median(perWrite[`${label} on`] ?? []);
      const off = median(perWrite[`${label} off`] ?? []);
      console.log(`${name} ${label}: median ${on.toFixed(0)} µs on / ${off.toFixed(0)} µs off = ${(on / off).toFixed(3)}; the triggers add ${(on - off).toFixed(0)} µs per write`);
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
