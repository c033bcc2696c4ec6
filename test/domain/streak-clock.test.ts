import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { rolledBack } from "../support/rolled-back";
import { sqlAsMember, sqlAsService } from "../support/store";

/**
 * Fixed clocks: the service's entry point takes the instant explicitly (members cannot execute it;
 * their check-ins always use the transaction clock). Results are then read back through the API.
 */
type Result = { check_in: { day: string }; created: boolean };

async function checkInAt(owner: TestMember, streakId: string, at: string, day: string | null = null): Promise<Result> {
  const [row] = await sqlAsService<{ r: Result }>(
    "select app_private.check_in_streak_at($1, $2, $3::date, '', $4::timestamptz) as r",
    [owner.id, streakId, day, at],
  );
  if (!row) throw new Error("no answer");
  return row.r;
}

async function refusalAt(owner: TestMember, streakId: string, at: string, day: string): Promise<string> {
  try {
    await checkInAt(owner, streakId, at, day);
    return "accepted";
  } catch (error) {
    return `${(error as { code: string }).code}: ${(error as Error).message}`;
  }
}

async function streakIn(timezone: string) {
  const owner = await makeMember();
  const created = await api("POST", "/streaks", { token: owner.token, body: { name: "Habit", timezone } });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  const stored = async () => {
    const [row] = await sqlAsService<{ current_count: number; longest_count: number; last: string | null }>(
      "select current_count, longest_count, last_check_in_on::text as last from public.streaks where id = $1",
      [id],
    );
    return row;
  };
  return { owner, id, stored };
}

const countAt = async (stored: number, last: string, timezone: string, at: string) => {
  const [row] = await sqlAsService<{ n: number }>(
    "select app_private.streak_current_count($1, $2::date, $3, $4::timestamptz) as n",
    [stored, last, timezone, at],
  );
  return row?.n;
};

describe("streak counts with fixed clocks", () => {
  it("runs across a month boundary, and breaks on a missing leap day until it is filled", async () => {
    const { owner, id, stored } = await streakIn("UTC");
    await checkInAt(owner, id, "2027-02-27T12:00:00Z");
    await checkInAt(owner, id, "2027-02-28T12:00:00Z");
    await checkInAt(owner, id, "2027-03-01T12:00:00Z");
    expect(await stored()).toEqual({ current_count: 3, longest_count: 3, last: "2027-03-01" });

    const leap = await streakIn("UTC");
    await checkInAt(leap.owner, leap.id, "2028-02-28T12:00:00Z");
    await checkInAt(leap.owner, leap.id, "2028-03-01T12:00:00Z");
    expect(await leap.stored()).toEqual({ current_count: 1, longest_count: 1, last: "2028-03-01" });
    await checkInAt(leap.owner, leap.id, "2028-03-01T13:00:00Z", "2028-02-29");
    expect(await leap.stored()).toEqual({ current_count: 3, longest_count: 3, last: "2028-03-01" });
  });

  it("runs across a year boundary", async () => {
    const { owner, id, stored } = await streakIn("Europe/Berlin");
    for (const at of ["2026-12-30T20:00:00Z", "2026-12-31T20:00:00Z", "2027-01-01T20:00:00Z"]) {
      await checkInAt(owner, id, at);
    }
    expect(await stored()).toEqual({ current_count: 3, longest_count: 3, last: "2027-01-01" });
  });

  it("counts local days across the spring-forward change (23-hour day)", async () => {
    const { owner, id, stored } = await streakIn("Europe/Berlin");
    // 23:30 CET on the 27th, 23:30 CEST on the 28th (23 hours later), 00:30 CEST on the 29th.
    expect((await checkInAt(owner, id, "2027-03-27T22:30:00Z")).check_in.day).toBe("2027-03-27");
    expect((await checkInAt(owner, id, "2027-03-28T21:30:00Z")).check_in.day).toBe("2027-03-28");
    expect((await checkInAt(owner, id, "2027-03-28T22:30:00Z")).check_in.day).toBe("2027-03-29");
    expect(await stored()).toEqual({ current_count: 3, longest_count: 3, last: "2027-03-29" });
  });

  it("treats 24 hours across the fall-back change (25-hour day) as the same local day", async () => {
    const { owner, id, stored } = await streakIn("America/New_York");
    // 00:30 EDT on 1 November, then 24 hours later it is 23:30 EST, still 1 November.
    const first = await checkInAt(owner, id, "2026-11-01T04:30:00Z");
    const second = await checkInAt(owner, id, "2026-11-02T04:30:00Z");
    expect(first).toMatchObject({ created: true, check_in: { day: "2026-11-01" } });
    expect(second).toMatchObject({ created: false, check_in: { day: "2026-11-01" } });
    expect(await stored()).toEqual({ current_count: 1, longest_count: 1, last: "2026-11-01" });
  });

  it("takes today from the streak's own time zone", async () => {
    const at = "2026-12-31T23:30:00Z";
    const auckland = await streakIn("Pacific/Auckland");
    const angeles = await streakIn("America/Los_Angeles");
    expect((await checkInAt(auckland.owner, auckland.id, at)).check_in.day).toBe("2027-01-01");
    expect((await checkInAt(angeles.owner, angeles.id, at)).check_in.day).toBe("2026-12-31");
  });

  it("refuses future days and days more than 7 back against the fixed clock", async () => {
    const { owner, id } = await streakIn("Pacific/Auckland");
    const at = "2026-12-31T23:30:00Z"; // 2027-01-01 12:30 in Auckland
    expect(await refusalAt(owner, id, at, "2027-01-02")).toMatch(/^22023: .*after today \(2027-01-01\)/);
    expect(await refusalAt(owner, id, at, "2026-12-24")).toMatch(/^22023: .*at most 7 days back/);
    expect(await refusalAt(owner, id, at, "2026-12-25")).toBe("accepted");
    expect(await refusalAt(owner, id, at, "2027-01-01")).toBe("accepted");
  });

  it("derives current_count at read time: kept through yesterday, 0 from the day after", async () => {
    expect(await countAt(5, "2026-12-31", "UTC", "2027-01-01T23:59:59Z")).toBe(5);
    expect(await countAt(5, "2026-12-31", "UTC", "2027-01-02T00:00:00Z")).toBe(0);
    // UTC+14: 2027-01-02 begins there at 10:00 UTC on 1 January.
    expect(await countAt(5, "2026-12-31", "Pacific/Kiritimati", "2027-01-01T09:59:59Z")).toBe(5);
    expect(await countAt(5, "2026-12-31", "Pacific/Kiritimati", "2027-01-01T10:00:00Z")).toBe(0);
    // Spring forward in Berlin: 29 March 2027 begins at 22:00 UTC on the 28th.
    expect(await countAt(2, "2027-03-27", "Europe/Berlin", "2027-03-28T21:59:59Z")).toBe(2);
    expect(await countAt(2, "2027-03-27", "Europe/Berlin", "2027-03-28T22:00:00Z")).toBe(0);
  });

  it("computes current_count inline in the streaks view, with no function call a row", async () => {
    // A SET clause (or anything else that stops Postgres inlining the function) would put the call back
    // in the plan: parsed and planned at each statement, run through the SQL-function executor a row.
    // Inlining depends on the caller's right to execute the function, so a member plans it.
    const member = await makeMember();
    const plan = (
      await sqlAsMember<{ "QUERY PLAN": string }>(
        member.id,
        "explain (verbose, costs off) select current_count from public.streaks_with_counts",
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(plan).toMatch(/CASE WHEN/);
    expect(plan).not.toMatch(/streak_current_count/);
  });

  it("counts with Postgres's own operators whatever the caller's search path holds", async () => {
    // The inlined body is parsed in the caller's statement: its operators name pg_catalog, so one that a
    // schema ahead of it on the search path declares is not taken. Either shadow, taken, would make the count 0.
    const { owner, id } = await streakIn("UTC");
    await checkInAt(owner, id, new Date().toISOString());
    const count = await rolledBack(async (tx) => {
      await tx.exec(`
        create schema shadow;
        create function shadow.never(date, date) returns boolean language sql immutable as 'select false';
        create operator shadow.>= (leftarg = date, rightarg = date, function = shadow.never);
        create function shadow.doomsday(date, integer) returns date language sql immutable as 'select date ''9999-12-31''';
        create operator shadow.- (leftarg = date, rightarg = integer, function = shadow.doomsday);
        set local search_path = shadow, pg_catalog;`);
      const [row] = await tx.query<{ n: number }>(
        "select current_count as n from public.streaks_with_counts where id = $1",
        [id],
      );
      return row?.n;
    });
    expect(count).toBe(1);
  });
});
