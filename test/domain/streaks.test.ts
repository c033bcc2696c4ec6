import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { expectStoreRefusal, sqlAsMember } from "../support/store";
import { checkIn, dayOffset, makeStreak } from "../support/streaks";
import { invoke } from "../surfaces/agent";

describe("POST /streaks/{id}/check-in", () => {
  it("records today in the streak's time zone and answers the derived counts (201)", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada, "Pacific/Kiritimati");
    const created = await api("GET", `/streaks/${id}`, { token: ada.token });
    expect(created.body).toMatchObject({ current_count: 0, longest_count: 0, last_check_in_on: null });
    const today = await dayOffset("Pacific/Kiritimati");
    const response = await checkIn(ada, id, { note: "5 km" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      created: true,
      check_in: { streak_id: id, day: today, note: "5 km" },
      streak: { id, current_count: 1, longest_count: 1, last_check_in_on: today },
    });
  });

  it("answers 200 with the existing check-in for a second check-in on the same day and records nothing", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    const first = await checkIn(ada, id, { note: "first" });
    const second = await checkIn(ada, id, { note: "second" });
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(false);
    expect(second.body.check_in).toEqual(first.body.check_in);
    expect(second.body.streak).toMatchObject({ current_count: 1, longest_count: 1 });
    const rows = await sqlAsMember(ada.id, "select id from public.streak_check_ins where streak_id = $1", [id]);
    expect(rows).toHaveLength(1);
  });

  it("records one check-in when two arrive at once: one 201, one 200", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    const both = await Promise.all([checkIn(ada, id, { note: "a" }), checkIn(ada, id, { note: "b" })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(both[0]?.body.check_in.id).toBe(both[1]?.body.check_in.id);
    const rows = await sqlAsMember(ada.id, "select id from public.streak_check_ins where streak_id = $1", [id]);
    expect(rows).toHaveLength(1);
  });

  it("accepts a past day up to 7 days back and joins the runs on both sides of a filled gap", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada, "Europe/Berlin");
    expect((await checkIn(ada, id, { date: await dayOffset("Europe/Berlin", -7) })).status).toBe(201);
    expect((await checkIn(ada, id, { date: await dayOffset("Europe/Berlin", -1) })).status).toBe(201);
    const now = await checkIn(ada, id);
    expect(now.body.streak).toMatchObject({ current_count: 2, longest_count: 2 });
    for (const back of [-6, -5, -4, -3]) await checkIn(ada, id, { date: await dayOffset("Europe/Berlin", back) });
    const before = await api("GET", `/streaks/${id}`, { token: ada.token });
    expect(before.body).toMatchObject({ current_count: 2, longest_count: 5 });
    const filled = await checkIn(ada, id, { date: await dayOffset("Europe/Berlin", -2) });
    expect(filled.body.streak).toMatchObject({ current_count: 8, longest_count: 8 });
  });

  it("refuses a future day and a day more than 7 days back with 422 and the store's reason", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada, "America/Los_Angeles");
    const future = await checkIn(ada, id, { date: await dayOffset("America/Los_Angeles", 1) });
    expectStoreRefusal(future, { status: 422, code: "invalid_request", sqlstate: "22023", message: /after today/ });
    const old = await checkIn(ada, id, { date: await dayOffset("America/Los_Angeles", -8) });
    expectStoreRefusal(old, {
      status: 422,
      code: "invalid_request",
      sqlstate: "22023",
      message: /at most 7 days back/,
    });
    const streak = await api("GET", `/streaks/${id}`, { token: ada.token });
    expect(streak.body).toMatchObject({ current_count: 0, last_check_in_on: null });
  });

  it("refuses a malformed date or an unknown field with 422 before reaching the store", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    expect((await checkIn(ada, id, { date: "2026-13-01" })).status).toBe(422);
    expect((await checkIn(ada, id, { day: "2026-11-01" })).status).toBe(422);
  });

  it("answers 404 for another member's streak and for an unknown id", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const id = await makeStreak(ada);
    expect((await checkIn(bob, id)).status).toBe(404);
    expect((await checkIn(bob, crypto.randomUUID())).status).toBe(404);
    expect((await api("GET", `/streaks/${id}`, { token: ada.token })).body.current_count).toBe(0);
  });

  it("works the same as the tool streaks_check_in", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    const first = await invoke(ada.token, { tool: "streaks_check_in", input: { id, note: "via tool" } });
    expect(first.body).toMatchObject({ ok: true, result: { created: true, streak: { current_count: 1 } } });
    const again = await invoke(ada.token, { tool: "streaks_check_in", input: { id } });
    expect(again.body).toMatchObject({ ok: true, result: { created: false, check_in: { note: "via tool" } } });
    const future = await invoke(ada.token, { tool: "streaks_check_in", input: { id, date: "2999-01-01" } });
    expect(future.body).toMatchObject({ ok: false, error: { code: "invalid_request", reason: { sqlstate: "22023" } } });
  });

  it("replays the first answer for a retried Idempotency-Key", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    const headers = { "idempotency-key": crypto.randomUUID() };
    const first = await api("POST", `/streaks/${id}/check-in`, { token: ada.token, body: {}, headers });
    const retried = await api("POST", `/streaks/${id}/check-in`, { token: ada.token, body: {}, headers });
    expect(first.status).toBe(201);
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual(first.body);
  });

  it("needs streaks:write", async () => {
    const ada = await makeMember({ scopes: ["streaks:read"] });
    const owner = await makeMember();
    const id = await makeStreak(owner);
    expect((await checkIn(ada, id)).status).toBe(403);
  });
});
