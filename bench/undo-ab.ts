// What undoing a collection's deletion costs with app_private.restore_deleted as 20261126120000 made it
// ("before": a dynamic insert and a ledger update for every row) and as 20261129074500 makes it ("after": one
// insert a table, one update), the two taking turns (ABBA over BENCH_AB_ROUNDS rounds) on one database.
// A member's collection of BENCH_UNDO_ITEMS items is deleted and undone through the tools' handlers as a
// token runs them (collections_delete, then activity_undo, which takes back the token's last write), twice
// a turn; the undo is timed at the driver, its transaction and commit included.
// Run: BENCH_DATABASES=postgres,pglite node bench/undo-ab.ts
import { randomUUID } from "node:crypto";
import { createMember } from "../lib/auth/members.ts";
import { type Actor, asService } from "../lib/db/index.ts";
import { memberHandler } from "./ceiling.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { alternate, beforeAfter, installer, settleSeeded, type Variant } from "./driver-ab.ts";
import { migrationFunction } from "./migration-sql.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const ITEMS = Number(process.env.BENCH_UNDO_ITEMS) || 4000;
const UNDOS = 2;
const FUNCTION = "app_private.restore_deleted";
const switchTo = installer({
  before: migrationFunction("20261126120000_create_activity", FUNCTION),
  after: migrationFunction("20261129074500_restore_deleted_by_table", FUNCTION),
});

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const member = await createMember({ email: `undo${Date.now()}@x.example`, handle: `undo${Date.now()}` });
    const actor: Actor = { kind: "token", id: randomUUID(), surface: "rest" };
    const collection = await asService(async (tx) => {
      const [song] = await tx.query<{ id: string }>("select id from public.catalog_entries limit 1");
      const [made] = await tx.query<{ id: string }>(
        "insert into public.collections (owner_id, name, type) values ($1, 'Kept', 'music') returning id",
        [member.id],
      );
      await tx.query(
        `insert into public.items (owner_id, collection_id, song_id, note)
         select $1, $2, $3, 'Heard at midnight ' || g from generate_series(1, $4::int) g`,
        [member.id, made?.id, song?.id, ITEMS],
      );
      return made?.id as string;
    });
    await settleSeeded(target);
    const remove = memberHandler("collections_delete", actor);
    const undo = memberHandler("activity_undo", actor, new Set(["collections:write"]));
    const times: Record<Variant, number[]> = { before: [], after: [] };
    await alternate(ROUNDS, switchTo, async (variant) => {
      for (let i = 0; i < UNDOS; i++) {
        await remove(member.id, { id: collection });
        const start = performance.now();
        const { restored } = (await undo(member.id)) as { restored: string[] };
        times[variant].push(performance.now() - start);
        if (restored.length !== ITEMS + 1) throw new Error(`${variant}: ${restored.length} rows restored`);
      }
    });
    console.log(
      `${name} undo of a collection of ${ITEMS} items, ms (median): ${beforeAfter(times.before, times.after, 0, { label: "undos" })}`,
    );
  } finally {
    await target.drop();
  }
}
process.exit(0);
