// What a streak's writes cost with the store before and after two migrations, the two taking turns (ABBA over
// BENCH_AB_ROUNDS rounds) on one database:
//   before: public.check_in_streak and app_private.recount_streak as SQL functions (20261122010000), each call
//           parsing and planning its body again; app_private.check_timezone reading pg_timezone_names, the
//           whole time zone database, at every call (20261122000500);
//   after:  both as PL/pgSQL, plans kept for the session (20261128223000); the time zone looked up in
//           app_private.timezone_names (20261128224500).
// Kinds, each from 8 loops at once for 3 s a turn after half a second unmeasured, each call in a member
// transaction as the API runs it:
//   again:      a check-in for a day the streak already has (the bench's check-in row: 200 after its first),
//               each loop on a streak of its own;
//   new day:    a check-in for a day the streak does not have yet (insert, recount, event), over 20,000 streaks;
//   new streak: POST /streaks's insert (its time zone checked).
// Check-ins (or streaks) a second and CPU a call (/proc): the database backends' on Postgres, the whole
// process's on PGlite (its database is in it).
// Run: BENCH_DATABASES=postgres,pglite node bench/streak-ab.ts
import { createMember } from "../lib/auth/members.ts";
import { asMember, asService } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { migrationFunction } from "./migration-sql.ts";
import { installer, LOOPS, takeTurnsOn, turnsLine } from "./driver-ab.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const CHECK_IN = ["public.check_in_streak", "app_private.recount_streak"];
const switchTo = installer({
  before: [
    ...CHECK_IN.map((name) => migrationFunction("20261122010000_create_streak_check_in", name)),
    migrationFunction("20261122000500_create_profiles", "app_private.check_timezone"),
  ].join("\n"),
  after: [
    ...CHECK_IN.map((name) => migrationFunction("20261128223000_check_in_functions_plpgsql", name)),
    migrationFunction("20261128224500_timezone_names_table", "app_private.check_timezone"),
  ].join("\n"),
});
const KINDS = ["again", "new day", "new streak"] as const;

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    const member = await createMember({ email: `streakab${Date.now()}@x.example`, handle: `streakab${Date.now()}` });
    // The new-day calls take streak k % STREAKS on day k / STREAKS back from today (8 days, today's included,
    // as a check-in may go 7 back): every call adds a day, and no two loops wait on one streak's lock.
    const STREAKS = 20_000;
    const streaks = await asService((tx) =>
      tx.query<{ id: string }>(
        "insert into public.streaks (owner_id, name) select $1, 'Bench ' || g from generate_series(1, $2::int) g returning id",
        [member.id, STREAKS + LOOPS],
      ),
    );
    const ids = streaks.map((row) => row.id);
    const dayBack = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const checkIn = (id: string | undefined, day: string | null) =>
      asMember(member.id, (tx) =>
        tx.query("select public.check_in_streak($1, $2::date, $3) as r", [id, day, null]),
      ).then(() => undefined);
    const again = ids.slice(STREAKS);
    for (const id of again) await checkIn(id, null);
    let fresh = 0;
    const runs = {
      again: (_: number, loop: number) => checkIn(again[loop], null),
      "new day": () => {
        const k = fresh++;
        if (k >= STREAKS * 8) throw new Error("out of new days");
        return checkIn(ids[k % STREAKS], dayBack(Math.floor(k / STREAKS)));
      },
      "new streak": () =>
        asMember(member.id, (tx) =>
          tx.query("insert into public.streaks (name, timezone) values ('Bench new', 'Europe/Paris') returning id"),
        ).then(() => undefined),
    };
    const turns = await takeTurnsOn(target, {
      rounds: ROUNDS,
      kinds: KINDS,
      switchTo,
      run: (kind, i, loop) => runs[kind](i, loop),
    });
    for (const kind of KINDS)
      console.log(
        turnsLine(name, kind, turns, { rate: kind === "new streak" ? "streaks/s" : "check-ins/s", call: "call" }),
      );
  } finally {
    await target.drop();
  }
}
process.exit(0);
