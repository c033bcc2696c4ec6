import { streaks } from "../../registry/resources/streaks.ts";
import { DomainError } from "../errors/domain-error.ts";
import { Reply, type ToolHandler } from "./context.ts";
import { toRecord } from "./record.ts";

type Row = { r: Record<string, unknown> };
type CheckInResult = { check_in: Record<string, unknown>; created: boolean };

/**
 * POST /streaks/{id}/check-in. The store does the work (public.check_in_streak: owner check, the
 * day in the streak's time zone, idempotent insert, recount); this answers 201 for a new day and
 * 200 when the day was already recorded.
 *
 * The three statements leave in one write, the commit with them (they run in order, each seeing
 * the one before): a round trip each had made the check-in the slowest write (npm run bench).
 * When the first finds no streak, the second's refusal aborts the rest, and the answer is 404.
 */
export const checkInStreak: ToolHandler<"streaks_check_in"> = async ({ tx, input }) => {
  const [visible, checkedIn, read] = await Promise.allSettled([
    // RLS shows only the member's own streaks: anything else is 404 here, before the store refuses it.
    tx.query("select 1 from public.streaks where id = $1", [input.id]),
    tx.query<{ r: CheckInResult }>("select public.check_in_streak($1, $2::date, $3) as r", [
      input.id,
      input.date ?? null,
      input.note ?? null,
    ]),
    tx.queryCommit<Row>("select to_jsonb(t) as r from public.streaks_with_counts t where t.id = $1", [input.id]),
  ]);
  if (visible.status === "fulfilled" && visible.value.length === 0) {
    throw new DomainError("not_found", "No streak with this id is visible to this token.");
  }
  // The first refusal is the one that aborted the statements after it.
  for (const outcome of [visible, checkedIn, read]) if (outcome.status === "rejected") throw outcome.reason;
  const [result] = checkedIn.status === "fulfilled" ? checkedIn.value : [];
  const [streak] = read.status === "fulfilled" ? read.value : [];
  if (!result || !streak) throw new Error("check-in answered nothing");
  const body = { check_in: result.r.check_in, streak: toRecord(streaks, streak.r), created: result.r.created };
  return result.r.created ? body : new Reply(200, body);
};
