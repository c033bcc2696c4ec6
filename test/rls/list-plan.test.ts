import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Queryable } from "@/lib/db";
import { encodeCursor } from "@/lib/http/pagination";
import { capabilityByTool } from "@/registry/capabilities";
import { makeMember } from "../support/factories";
import { rolledBack } from "../support/rolled-back";
import { explainStatement, recordList, type Statement } from "../../bench/explain";

/** The rest of the transaction runs as the member, under RLS, as the pipeline's do. */
const asMemberIn = (tx: Queryable, memberId: string) =>
  tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
    JSON.stringify({ sub: memberId, role: "authenticated" }),
  ]);

/**
 * Plans Postgres made for ten runs of a list's statement, prepared afresh: a comment makes its text new
 * to the connection. Counts are kept per connection, and a pooled one may already have planned the
 * list under other statistics, which moves when the generic plan wins (CI's server pass at e5165d0).
 * Postgres plans the first five runs for their parameters, then keeps one generic plan unless those
 * plans looked cheaper.
 */
async function plansOfTenRuns(tx: Queryable, list: Statement) {
  const sql = `${list.sql} /* plans of ten runs ${randomUUID()} */`;
  for (let i = 0; i < 10; i++) await tx.query(sql, list.params);
  const [row] = await tx.query<{ generic_plans: string | number; custom_plans: string | number }>(
    "select generic_plans, custom_plans from pg_prepared_statements where statement = $1",
    [sql],
  );
  return { custom: Number(row?.custom_plans), generic: Number(row?.generic_plans) };
}

/**
 * A member who owns most of a table (one person self-hosting, or the bench's growth member): their
 * list must read the first page of the owner's index, not scan and sort every row they own. The
 * credential-limit policy once made the planner expect a handful of rows and choose the sort (6 ms a
 * list at 10,000 rows). The rows and their statistics live in a transaction rolled back at the end.
 */
describe("a list when the member owns most of the table", () => {
  for (const [tool, table] of [
    ["collections_list", "collections"],
    ["items_list", "items"],
  ] as const) {
    it(`${tool} reads the owner's index in order: no sort, no sequential scan`, async () => {
      const member = await makeMember();
      const capability = capabilityByTool.get(tool);
      if (!capability) throw new Error(`no ${tool} capability`);
      const plan = await rolledBack(async (tx) => {
        await tx.query(
          `with made as (
               insert into public.collections (owner_id, name, type, created_at)
               select $1, 'Collection ' || g, 'music', now() - make_interval(secs => g)
               from generate_series(1, 4000) g
               returning id, created_at)
             insert into public.items (owner_id, collection_id, song_id, note, created_at)
             select $1, id, (select id from public.catalog_entries order by id limit 1), 'note', created_at from made`,
          [member.id],
        );
        // Other members own a few rows each, none shared: the planner's guess at "this member's or
        // shared" then comes from one owner's share among many, as in a real deployment.
        await tx.query(
          `with others as (
               insert into auth.users (id, email)
               select gen_random_uuid(), 'plan-' || gen_random_uuid() || '@example.test' from generate_series(1, 40)
               returning id)
             insert into public.collections (owner_id, name, type)
             select others.id, 'Other ' || g, 'music' from others, generate_series(1, 3) g`,
        );
        await tx.query("analyze public.collections");
        await tx.query(`analyze public.${table}`);
        await asMemberIn(tx, member.id);
        const { statement: list, answer: page } = await recordList(tx, capability, member.id, {}, `public.${table}`);
        const explained = await explainStatement(tx, list);
        expect(JSON.stringify(page)).toContain(`${table === "items" ? "note" : "Collection 1"}`);
        // Planned with the member's id and the limit, a member owning most rows made those plans look
        // cheaper, and every list was planned again: 0.2 ms of the database's CPU a list at 100,000
        // rows (bench growth, 2026-11-28T14-54Z).
        expect(await plansOfTenRuns(tx, list)).toEqual({ custom: 5, generic: 5 });
        // A later page's statement adds the cursor's keyset: a member paging through their rows must not
        // replan each page either, near the newest rows (the second page) or near the oldest.
        const pageStatement = async (after: string) => {
          const { statement } = await recordList(tx, capability, member.id, { after }, `public.${table}`);
          expect(statement.sql).toContain("(t.created_at, t.id) <");
          return statement;
        };
        const second = (page as { next_cursor: string | null }).next_cursor;
        if (!second) throw new Error("no second page");
        const [old] = await tx.query<{ created_at: string; id: string }>(
          `select to_json(t.created_at) #>> '{}' as created_at, t.id::text as id from public.${table} t
            where t.owner_id = $1 order by t.created_at, t.id offset 10 limit 1`,
          [member.id],
        );
        if (!old) throw new Error("no old row");
        for (const after of [second, encodeCursor({ createdAt: old.created_at, id: old.id })]) {
          const later = await pageStatement(after);
          expect(await plansOfTenRuns(tx, later)).toEqual({ custom: 5, generic: 5 });
          const laterPlan = await explainStatement(tx, later);
          expect(laterPlan).toContain(`${table}_owner_created_idx`);
          expect(laterPlan).not.toMatch(new RegExp(`Seq Scan on ${table}|Sort Key`));
        }
        return explained;
      });
      expect(plan).toContain(`${table}_owner_created_idx`);
      expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}|Sort Key`));
    });
  }
});

describe("a list of one collection that holds most of the table", () => {
  it("items_list by collection_id keeps its generic plan and reads the collection's index in order", async () => {
    const member = await makeMember();
    const capability = capabilityByTool.get("items_list");
    if (!capability) throw new Error("no items_list capability");
    await rolledBack(async (tx) => {
      const [big] = await tx.query<{ id: string }>(
        "insert into public.collections (owner_id, name, type) values ($1, 'Everything', 'music') returning id",
        [member.id],
      );
      if (!big) throw new Error("no collection");
      const song = "(select id from public.catalog_entries order by id limit 1)";
      await tx.query(
        `insert into public.items (owner_id, collection_id, song_id, created_at)
         select $1, $2, ${song}, now() - make_interval(secs => g) from generate_series(1, 4000) g`,
        [member.id, big.id],
      );
      await tx.query(
        `with small as (
             insert into public.collections (owner_id, name, type)
             select $1, 'Small ' || g, 'music' from generate_series(1, 40) g returning id)
           insert into public.items (owner_id, collection_id, song_id)
           select $1, small.id, ${song} from small, generate_series(1, 3)`,
        [member.id],
      );
      await tx.query("analyze public.items");
      await asMemberIn(tx, member.id);
      const { statement: list } = await recordList(
        tx,
        capability,
        member.id,
        { collection_id: big.id },
        "public.items",
      );
      expect(await plansOfTenRuns(tx, list)).toEqual({ custom: 5, generic: 5 });
      const plan = await explainStatement(tx, list);
      expect(plan).toContain("items_collection_created_idx");
      expect(plan).not.toMatch(/Seq Scan on items|Sort Key/);
    });
  });
});
