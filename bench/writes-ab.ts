// What a member's writes cost with the store before and after this stop's two migrations, the two taking turns
// (ABBA over BENCH_AB_ROUNDS rounds) on one database:
//   event:    app_private.emit_webhook_event of 20261127223000 (the audience from a query over unnest(), the
//             deliveries' insert … select run for every event) → 20261129010000 (a loop of expressions; the
//             insert only when one of the audience has an enabled endpoint);
//   activity: the deletion triggers of 20261127203455_activity_triggers (one call a row, each searching every
//             ledger entry of its transaction) → 20261129010001 (one call a statement, ids matched by hash joins).
// WRITES_AB=event or activity switches only that part (default: both).
// Kinds, each from 8 loops at once, each call one statement in a member transaction whose claims name a
// personal access token, as the API's are (so the ledger's branches run): the bench's create row (an item),
// its update row (a new note), a delete (an item made for it). Writes a second and CPU a write: the database
// backends' on Postgres, the whole process's on PGlite. Then a collection of BENCH_CASCADE_ITEMS items
// (1000,4000,16000) deleted by the member, timed, the versions taking turns over two rounds.
// Run: BENCH_DATABASES=postgres,pglite node bench/writes-ab.ts
import { createMember } from "../lib/auth/members.ts";
import { asMember, asService, type Transaction } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { alternate, beforeAfter, installer, LOOPS, takeTurnsOn, turnsLine, type Variant } from "./driver-ab.ts";
import { migrationFunction, migrationText } from "./migration-sql.ts";
import { seedCatalog } from "./seed.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const PARTS = (process.env.WRITES_AB || "event,activity").split(",");
const EMIT = "app_private.emit_webhook_event";
const version = (parts: Record<string, string>) =>
  PARTS.map((part) => {
    const sql = parts[part];
    if (sql === undefined) throw new Error(`WRITES_AB: no part "${part}" (event, activity)`);
    return sql;
  }).join("\n");
const switchTo = installer({
  before: version({
    event: migrationFunction("20261127223000_ledger_reads_member_log", EMIT),
    activity: migrationText("20261127203455_activity_triggers"),
  }),
  after: version({
    event: migrationFunction("20261129010000_event_trigger_fewer_statements", EMIT),
    activity: migrationText("20261129010001_activity_triggers"),
  }),
});
const KINDS = ["create", "update", "delete"] as const;
const CASCADE = (process.env.BENCH_CASCADE_ITEMS || "1000,4000,16000").split(",").map(Number);

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const stamp = Date.now();
    const member = await createMember({ email: `writesab${stamp}@x.example`, handle: `writesab${stamp}` });
    const actor = { kind: "token", id: "00000000-0000-4000-8000-000000000001", surface: "rest" } as const;
    const asToken = <T>(fn: (tx: Transaction) => Promise<T>) => asMember(member.id, fn, { actor });
    const write = (sql: string, params: unknown[]) =>
      asToken((tx) => tx.query(sql, params)).then((rows) => {
        if (rows.length !== 1) throw new Error(`${sql}: ${rows.length} rows`);
      });
    const [song] = await seedCatalog(100);
    const collectionOf = async (items: number) =>
      asService(async (tx) => {
        const [made] = await tx.query<{ id: string }>(
          "insert into public.collections (owner_id, name, type) values ($1, 'Bench', 'music') returning id",
          [member.id],
        );
        await tx.query(
          "insert into public.items (owner_id, collection_id, song_id) select $1, $2, $3 from generate_series(1, $4::int)",
          [member.id, made?.id, song, items],
        );
        return made?.id as string;
      });
    const collection = await collectionOf(0);
    // Enough items for every delete of every turn (a turn deletes at most a few thousand on two cores).
    const DELETES = 400_000;
    const items = await asService((tx) =>
      tx.query<{ id: string }>(
        "insert into public.items (owner_id, collection_id, song_id) select $1, $2, $3 from generate_series(1, $4::int) returning id",
        [member.id, collection, song, DELETES + LOOPS],
      ),
    );
    const ids = items.map((row) => row.id);
    let deleted = 0;
    const runs = {
      create: () =>
        write("insert into public.items (collection_id, song_id) values ($1, $2) returning id", [collection, song]),
      update: (i: number, loop: number) =>
        write("update public.items set note = $2 where id = $1 returning id", [ids[DELETES + loop], `take ${i}`]),
      delete: () => {
        if (deleted >= DELETES) throw new Error("out of items to delete");
        return write("delete from public.items where id = $1 returning id", [ids[deleted++]]);
      },
    };
    const turns = await takeTurnsOn(target, {
      rounds: ROUNDS,
      kinds: KINDS,
      switchTo,
      run: (kind, i, loop) => runs[kind](i, loop),
    });
    for (const kind of KINDS) console.log(turnsLine(name, kind, turns, { rate: "writes/s", call: "write" }));

    const cascades = new Map<string, number[]>();
    await alternate(2, switchTo, async (variant) => {
      for (const size of CASCADE) {
        const doomed = await collectionOf(size);
        const started = performance.now();
        await asToken((tx) => tx.query("delete from public.collections where id = $1", [doomed]));
        const key = `${size}|${variant}`;
        cascades.set(key, [...(cascades.get(key) ?? []), performance.now() - started]);
      }
    });
    for (const size of CASCADE) {
      const of = (variant: Variant) => cascades.get(`${size}|${variant}`) ?? [];
      console.log(
        `${name} a collection of ${size} items deleted, ms: ${beforeAfter(of("before"), of("after"), 0, { ratioDigits: 3 })}; ` +
          `${(median(of("after")) / size).toFixed(3)} ms an item after`,
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
