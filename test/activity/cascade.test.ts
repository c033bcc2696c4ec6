import { describe, expect, it } from "vitest";
import { POST as invokeRoute } from "@/app/api/agent/invoke/route";
import { asMember, asService, type Transaction } from "@/lib/db";
import { ACTIVITY_SOURCES } from "@/registry/activity";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";

// A deletion's ledger entries are written once a statement (the trigger's transition table), with the rows
// that went with a parent found by hash joins: one call a row had searched every entry of its transaction,
// so a collection of 16,000 items took a minute to delete (bench/results/2026-11-29-writes.md).

interface Entry {
  operation: string;
  record_id: string;
  cascaded: boolean;
  before: Record<string, unknown> | null;
}

const entriesOf = (member: TestMember) =>
  asService((tx) =>
    tx.query<Entry>(
      "select operation, record_id, cascaded, before from public.activity where owner_id = $1 order by created_at",
      [member.id],
    ),
  );

/** A member's collection and `count` items in it, written by the service (so the ledger holds nothing yet). */
async function collectionWithItems(member: TestMember, count: number) {
  const song = await makeCatalogEntry();
  return asService(async (tx) => {
    const [collection] = await tx.query<{ id: string }>(
      "insert into public.collections (owner_id, name, type) values ($1, 'Big', 'music') returning id",
      [member.id],
    );
    const items = await tx.query<{ id: string }>(
      "insert into public.items (owner_id, collection_id, song_id, note) select $1, $2, $3, 'n' || g from generate_series(1, $4::int) g returning id",
      [member.id, collection?.id, song, count],
    );
    return { collection: collection?.id as string, items: items.map((item) => item.id) };
  });
}

const asToken = <T>(member: TestMember, fn: (tx: Transaction) => Promise<T>) =>
  asMember(member.id, fn, { actor: { kind: "token", id: member.tokenId, surface: "rest" } });

async function undo(member: TestMember) {
  const response = await invokeRoute(
    new Request("http://localhost/api/agent/invoke", {
      method: "POST",
      headers: { authorization: `Bearer ${member.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tool: "activity_undo", input: {} }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

/**
 * The ledger once a collection was deleted, `first` of its items deleted before it in the same transaction:
 * one entry an item, every one marked as gone with the collection, `first`'s recorded first (and marked when
 * the collection went).
 */
async function expectItemsGoneWithCollection(member: TestMember, items: string[], first: string | undefined) {
  const entries = await entriesOf(member);
  expect(entries.filter((e) => e.operation === "collection.deleted")).toMatchObject([{ cascaded: false }]);
  const gone = entries.filter((e) => e.operation === "item.deleted");
  expect(gone[0]).toMatchObject({ record_id: first, cascaded: true });
  expect(gone.map((e) => e.record_id).sort()).toEqual([...items].sort());
  expect(gone.every((e) => e.cascaded)).toBe(true);
}

describe("activity: what a deletion took with it", () => {
  it("a collection deleted with 300 items: one entry each, the items marked as gone with it, all back on undo", async () => {
    const ada = await makeMember();
    const { collection, items } = await collectionWithItems(ada, 300);
    const rowsOf = () =>
      asService((tx) =>
        tx.query<{ row: unknown }>(
          `select to_jsonb(c) as row from public.collections c where id = $1
           union all (select to_jsonb(i) from public.items i where collection_id = $1 order by id)`,
          [collection],
        ),
      );
    const stored = await rowsOf();
    expect((await api("DELETE", `/collections/${collection}`, { token: ada.token })).status).toBe(204);

    const entries = await entriesOf(ada);
    expect(entries.filter((e) => e.operation === "collection.deleted")).toMatchObject([
      { record_id: collection, cascaded: false },
    ]);
    const gone = entries.filter((e) => e.operation === "item.deleted");
    expect(gone.map((e) => e.record_id).sort()).toEqual([...items].sort());
    expect(gone.every((e) => e.cascaded && e.before?.collection_id === collection)).toBe(true);

    const undone = await undo(ada);
    expect(undone.status).toBe(200);
    // The record first, then what went with it; every row back as it was, every entry marked undone.
    const [first, ...rest] = undone.body.result.restored as string[];
    expect(first).toBe(collection);
    expect(rest.sort()).toEqual([...items].sort());
    expect(await rowsOf()).toEqual(stored);
    const open = await asService((tx) =>
      tx.query("select id from public.activity where owner_id = $1 and before is not null and undone_at is null", [
        ada.id,
      ]),
    );
    expect(open).toEqual([]);
  });

  it("records a cascade of many rows in one call of the trigger, not one a row", async () => {
    const ada = await makeMember();
    const { collection } = await collectionWithItems(ada, 50);
    // EXPLAIN ANALYZE counts each trigger's calls; rolled back, so nothing is deleted.
    const plan = await asToken(ada, async (tx) => {
      const [row] = await tx.query<{ "QUERY PLAN": { Triggers: { "Trigger Name": string; Calls: number }[] }[] }>(
        "explain (analyze, format json) delete from public.collections where id = $1",
        [collection],
      );
      throw Object.assign(new Error("rollback"), { plan: row?.["QUERY PLAN"][0] });
    }).catch((error: { plan?: { Triggers: { "Trigger Name": string; Calls: number }[] } }) => error.plan);
    const calls = Object.fromEntries((plan?.Triggers ?? []).map((t) => [t["Trigger Name"], t.Calls]));
    expect(calls).toMatchObject({ activity_item_deleted: 1, activity_collection_deleted: 1, webhook_item_deleted: 50 });
  });

  it("an item deleted before its collection, in one transaction, is marked as gone with it", async () => {
    const ada = await makeMember();
    const { collection, items } = await collectionWithItems(ada, 3);
    await asToken(ada, async (tx) => {
      await tx.query("delete from public.items where id = $1", [items[0]]);
      await tx.query("delete from public.collections where id = $1", [collection]);
    });
    await expectItemsGoneWithCollection(ada, items, items[0]);
    // Undo puts the collection back before the items, though that item's deletion was recorded first.
    const undone = await undo(ada);
    expect(undone.status).toBe(200);
    expect([...undone.body.result.restored].sort()).toEqual([collection, ...items].sort());
    const back = await asService((tx) =>
      tx.query<{ n: number }>("select count(*)::int as n from public.items where collection_id = $1", [collection]),
    );
    expect(back).toEqual([{ n: 3 }]);
  });

  it("a deletion rolled back to a savepoint leaves no entry, and the deletions after it are matched as ever", async () => {
    const ada = await makeMember();
    const { collection, items } = await collectionWithItems(ada, 3);
    // The first deletion's entry and its transaction-local mark go back together with the savepoint; the
    // next deletion is then the first again, and the collection's cascade is matched with it.
    const mark = async (tx: Transaction) => {
      const [row] = await tx.query<{ mark: string | null; xact: string | null }>(
        "select current_setting('pds.deletions_recorded', true) as mark, txid_current_if_assigned()::text as xact",
      );
      return row;
    };
    const marks = await asToken(ada, async (tx) => {
      await tx.exec("savepoint before_item");
      await tx.query("delete from public.items where id = $1", [items[0]]);
      const inSavepoint = await mark(tx);
      await tx.exec("rollback to savepoint before_item");
      const afterRollback = await mark(tx);
      await tx.query("delete from public.items where id = $1", [items[1]]);
      await tx.query("delete from public.collections where id = $1", [collection]);
      return { inSavepoint, afterRollback };
    });
    expect(marks.inSavepoint?.xact).toMatch(/^\d+$/);
    expect(marks.inSavepoint?.mark).toBe(marks.inSavepoint?.xact);
    expect(marks.afterRollback?.xact).toBe(marks.inSavepoint?.xact);
    expect(marks.afterRollback?.mark).not.toBe(marks.inSavepoint?.xact);
    await expectItemsGoneWithCollection(ada, items, items[1]);
  });

  it("rows one statement deletes with no parent among them are each recorded, none as gone with another", async () => {
    const ada = await makeMember();
    const todos = await asService((tx) =>
      tx.query<{ id: string }>(
        "insert into public.todos (owner_id, title) select $1, 't' || g from generate_series(1, 5) g returning id",
        [ada.id],
      ),
    );
    const ids = todos.map((t) => t.id);
    // Two in the transaction's first deletion, then the other three in a later statement, which is matched
    // with the entries before it (none of which is a parent of theirs).
    await asToken(ada, async (tx) => {
      await tx.query("delete from public.todos where id = any ($1::uuid[])", [ids.slice(0, 2)]);
      await tx.query("delete from public.todos where id = any ($1::uuid[])", [ids.slice(2)]);
    });
    const entries = await entriesOf(ada);
    expect(entries.map((e) => [e.operation, e.cascaded])).toEqual(ids.map(() => ["todo.deleted", false]));
    expect(entries.map((e) => e.record_id).sort()).toEqual([...ids].sort());
  });

  it("rows recorded before a column was added come back with its default, not refused for its NULL", async () => {
    const ada = await makeMember();
    const { collection } = await collectionWithItems(ada, 2);
    // Tags other than the default, so that the rows coming back with the default shows where it came from.
    await asService((tx) => tx.query("update public.items set tags = '{kept}' where collection_id = $1", [collection]));
    expect((await api("DELETE", `/collections/${collection}`, { token: ada.token })).status).toBe(204);
    // As entries written before items had tags: their images hold no such column.
    await asService((tx) =>
      tx.query(
        "update public.activity set before = before - 'tags' where owner_id = $1 and operation = 'item.deleted'",
        [ada.id],
      ),
    );
    const undone = await undo(ada);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    const back = await asService((tx) =>
      tx.query<{ id: string; tags: string[]; note: string }>(
        "select id, tags, note from public.items where collection_id = $1 order by id",
        [collection],
      ),
    );
    expect(back.map((row) => row.tags)).toEqual([[], []]);
    expect(back.map((row) => row.note).sort()).toEqual(["n1", "n2"]);
  });

  it("a streak's check-ins go with it; a delete of nothing (not the member's) records no deletion", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const [streak] = await asService((tx) =>
      tx.query<{ id: string }>("insert into public.streaks (owner_id, name) values ($1, 'Run') returning id", [ada.id]),
    );
    await asService((tx) =>
      tx.query(
        "insert into public.streak_check_ins (streak_id, owner_id, day) select $1, $2, current_date - g from generate_series(0, 4) g",
        [streak?.id, ada.id],
      ),
    );
    expect((await api("DELETE", `/streaks/${streak?.id}`, { token: bob.token })).status).toBe(404);
    // The refused call is in bob's ledger as a failure (operation: the capability), no deletion with it.
    expect((await entriesOf(bob)).map((e) => e.operation)).toEqual(["streaks_delete"]);
    // And a statement that deleted nothing takes no transaction id for its trigger's sake.
    const assigned = await asToken(bob, async (tx) => {
      await tx.query("delete from public.streaks where id = $1", [streak?.id]);
      return tx.query<{ xact: string | null }>("select txid_current_if_assigned()::text as xact");
    });
    expect(assigned).toEqual([{ xact: null }]);
    expect((await api("DELETE", `/streaks/${streak?.id}`, { token: ada.token })).status).toBe(204);
    const entries = await entriesOf(ada);
    expect(entries.filter((e) => e.operation === "streak.deleted")).toMatchObject([{ cascaded: false }]);
    const checkIns = entries.filter((e) => e.operation === "streak.checked_in.deleted");
    expect(checkIns).toHaveLength(5);
    expect(checkIns.every((e) => e.cascaded)).toBe(true);
    // Undo puts the streak back before its check-ins, which refer to it.
    const undone = await undo(ada);
    expect(undone.status).toBe(200);
    expect(undone.body.result.restored[0]).toBe(streak?.id);
    const back = await asService((tx) =>
      tx.query<{ n: number }>("select count(*)::int as n from public.streak_check_ins where streak_id = $1", [
        streak?.id,
      ]),
    );
    expect(back).toEqual([{ n: 5 }]);
  });

  it("no table whose deletions are recorded refers to itself or to one that refers to a third", async () => {
    // The triggers never match the rows of one statement with each other (lib/domain/activity/triggers-sql.ts):
    // a table with a foreign key to itself would need it.
    const tables = [...new Set(ACTIVITY_SOURCES.filter((s) => s.on === "delete").map((s) => s.table))];
    expect(tables.length).toBeGreaterThan(5);
    const selfReferences = await asService((tx) =>
      tx.query(
        `select c.conrelid::regclass::text as table_name from pg_constraint c
          where c.contype = 'f' and c.conrelid = c.confrelid and c.conrelid = any ($1::regclass[])`,
        [tables],
      ),
    );
    expect(selfReferences).toEqual([]);
    // And what went with a record is one level deep: no recorded table refers to one that refers to a
    // third, which app_private.restore_deleted's order of tables relies on (20261129074500).
    const chains = await asService((tx) =>
      tx.query(
        `select a.conrelid::regclass::text as child, b.conrelid::regclass::text as parent
           from pg_constraint a join pg_constraint b on b.conrelid = a.confrelid
          where a.contype = 'f' and b.contype = 'f' and a.conrelid <> a.confrelid and b.conrelid <> b.confrelid
            and a.conrelid = any ($1::regclass[]) and b.conrelid = any ($1::regclass[])
            and b.confrelid = any ($1::regclass[])`,
        [tables],
      ),
    );
    expect(chains).toEqual([]);
  });
});
