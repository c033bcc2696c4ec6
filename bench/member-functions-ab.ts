// What five functions on members' paths cost with the store before and after 20261129043000, the two taking
// turns (ABBA over BENCH_AB_ROUNDS rounds) on one database:
//   before: SQL functions with a SET clause, as their migrations wrote them, parsed and planned again at every
//           statement that calls them (streak_current_count also run through the SQL-function executor a row);
//   after:  streak_current_count inlined into the streaks view; blocked_between, lock_member_pair and
//           caller_timezone (and unchanged_since, which undo calls and no kind here runs) as PL/pgSQL.
// Kinds, each from 8 loops at once for 3 s a turn after half a second unmeasured, each call in a member
// transaction with a token actor as the API runs it:
//   message:       a direct message sent (the message trigger asks blocked_between), to one of 64 members;
//   follow:        a follow of one of 64 members and its unfollow, in one transaction (the follow trigger
//                  takes lock_member_pair);
//   new streak:    POST /streaks without a time zone, through the create handler (the column's default is
//                  caller_timezone; its answer reads the view), by members of their own, so the list's
//                  page stays the same streaks;
//   check-in:      the check-in handler for a day the streak already has (it reads the streaks view);
//   streaks list:  GET /streaks's first page, 50 of the member's 60 streaks, through the list handler.
// Calls a second and CPU a call (/proc): the database backends' on Postgres, the whole process's on PGlite.
// Run: BENCH_DATABASES=postgres,pglite node bench/member-functions-ab.ts
import { randomUUID } from "node:crypto";
import { createMember } from "../lib/auth/members.ts";
import { type Actor, asMember, asService, type Transaction } from "../lib/db/index.ts";
import { memberHandler } from "./ceiling.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { installer, LOOPS, takeTurnsOn, turnsLine } from "./driver-ab.ts";
import { migrationFunction } from "./migration-sql.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const BEFORE: Record<string, string> = {
  "app_private.streak_current_count": "20261122010000_create_streak_check_in",
  "app_private.blocked_between": "20261122001300_create_blocks",
  "app_private.lock_member_pair": "20261125100000_serialize_block_and_follow",
  "app_private.caller_timezone": "20261122010500_default_streak_timezone_to_profile",
  "app_private.unchanged_since": "20261127200000_ledger_from_events",
};
const switchTo = installer({
  before: Object.entries(BEFORE)
    .map(([name, migration]) => migrationFunction(migration, name))
    .join("\n"),
  after: Object.keys(BEFORE)
    .map((name) => migrationFunction("20261129043000_member_path_functions", name))
    .join("\n"),
});
const KINDS = ["message", "follow", "new streak", "check-in", "streaks list"] as const;
const STREAKS = 60;
const OTHERS = 64;

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const stamp = Date.now();
    const make = (i: number) =>
      createMember({ email: `memberfn${stamp}_${i}@x.example`, handle: `memberfn${stamp}_${i}` });
    const members = await Promise.all(Array.from({ length: LOOPS }, (_, i) => make(i)));
    const creators = await Promise.all(Array.from({ length: LOOPS }, (_, i) => make(LOOPS + OTHERS + i)));
    // Messages and follows go round these, so no index page or unique key is every call's: one recipient
    // for all, or one follow made and removed again and again, measured the pile-up of dead index
    // entries and hot pages more than the functions.
    const others: { id: string }[] = [];
    for (let i = 0; i < OTHERS; i++) others.push(await make(LOOPS + i));
    const nth = <T>(list: T[], i: number): T => {
      const found = list[i % list.length];
      if (!found) throw new Error("no member");
      return found;
    };
    const memberOf = (loop: number) => nth(members, loop);
    const otherOf = (i: number) => nth(others, i).id;
    const actor: Actor = { kind: "token", id: randomUUID(), surface: "rest" };
    // Each loop's member owns STREAKS streaks, each checked in today, so the list's page of 50 computes every
    // count (a streak never checked in stops at its null day); the first is the one the check-in kind checks
    // in again (the bench's row: 200).
    const streakIds = await Promise.all(
      members.map(async (member) => {
        const rows = await asService((tx) =>
          tx.query<{ id: string }>(
            "insert into public.streaks (owner_id, name) select $1, 'Bench ' || g from generate_series(1, $2::int) g returning id",
            [member.id, STREAKS],
          ),
        );
        const ids = rows.map((row) => row.id);
        await asMember(member.id, (tx) =>
          tx.query("select public.check_in_streak(id, null, null) from unnest($1::uuid[]) id", [ids]),
        );
        return ids;
      }),
    );
    const statements = (loop: number, fn: (tx: Transaction) => Promise<unknown>) =>
      asMember(memberOf(loop).id, fn, { actor });
    const listStreaks = memberHandler("streaks_list", actor);
    const createStreak = memberHandler("streaks_create", actor);
    const checkIn = memberHandler("streaks_check_in", actor);
    const runs = {
      message: (i: number, loop: number) =>
        statements(loop, (tx) =>
          tx.query("insert into public.messages (recipient_id, body) values ($1, 'bench') returning id", [otherOf(i)]),
        ),
      follow: (i: number, loop: number) =>
        statements(loop, async (tx) => {
          const [row] = await tx.query<{ id: string }>(
            "insert into public.follows (followee_id) values ($1) returning id",
            [otherOf(i)],
          );
          await tx.query("delete from public.follows where id = $1", [row?.id]);
        }),
      "new streak": (_: number, loop: number) => createStreak(nth(creators, loop).id, { name: "Bench new" }),
      "check-in": (_: number, loop: number) => checkIn(memberOf(loop).id, { id: streakIds[loop]?.[0] }),
      "streaks list": (_: number, loop: number) => listStreaks(memberOf(loop).id, { limit: 50 }),
    };
    const turns = await takeTurnsOn(target, {
      rounds: ROUNDS,
      kinds: KINDS,
      switchTo,
      run: (kind, i, loop) => runs[kind](i, loop),
    });
    for (const kind of KINDS) console.log(turnsLine(name, kind, turns, { rate: "calls/s", call: "call" }));
  } finally {
    await target.drop();
  }
}
process.exit(0);
