// The create and update rows' statements (insert an item; change a collection's description) under
// EXPLAIN ANALYZE, as the member with a token actor as the pipeline runs them, for bench/activity-sql.ts and
// bench/activity-variants.ts: each write answers the statement's time and the activity triggers' share, ms.
import { randomUUID } from "node:crypto";
import { type Actor, asMember } from "../lib/db/index.ts";
import type { seed } from "./seed.ts";

interface Plan {
  "Execution Time": number;
  Triggers?: { "Trigger Name": string; Time: number }[];
}

export type WriteTimes = { total: number; activity: number };

/** The statement's execution time and the activity trigger's share of it, in ms. */
function timesOf(rows: { "QUERY PLAN": unknown }[]): WriteTimes {
  const raw = rows[0]?.["QUERY PLAN"];
  const [plan] = (typeof raw === "string" ? JSON.parse(raw) : raw) as Plan[];
  if (!plan) throw new Error("no plan");
  const activity = (plan.Triggers ?? [])
    .filter((t) => t["Trigger Name"].startsWith("activity_"))
    .reduce((sum, t) => sum + t.Time, 0);
  return { total: plan["Execution Time"], activity };
}

export function activityWrites({
  members,
  catalogIds,
}: Pick<Awaited<ReturnType<typeof seed>>, "members" | "catalogIds">) {
  const actor: Actor = { kind: "token", id: randomUUID(), surface: "rest" };
  const memberAt = (i: number) => {
    const member = members[i % members.length];
    if (!member) throw new Error("no member");
    return member;
  };
  const explain = (memberId: string, sql: string, params: unknown[]) =>
    asMember(memberId, async (tx) => timesOf(await tx.query(`explain (analyze, format json) ${sql}`, params)), {
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
