import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { expectStoreRefusal, sqlAsService } from "../support/store";
import { checkIn, dayOffset, makeStreak } from "../support/streaks";

describe("streak time zone", () => {
  it("defaults to the member's profile timezone", async () => {
    const ada = await makeMember();
    await api("PATCH", "/profile", { token: ada.token, body: { timezone: "Asia/Tokyo" } });
    const created = await api("POST", "/streaks", { token: ada.token, body: { name: "Read" } });
    expect(created.body.timezone).toBe("Asia/Tokyo");
    const bob = await makeMember();
    expect((await api("POST", "/streaks", { token: bob.token, body: { name: "Read" } })).body.timezone).toBe("UTC");
  });

  it("refuses an unknown timezone with the store's reason (422)", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/streaks", {
      token: ada.token,
      body: { name: "x", timezone: "Europe/Atlantis" },
    });
    expectStoreRefusal(created, {
      status: 422,
      code: "invalid_request",
      sqlstate: "22023",
      message: /unknown timezone/,
    });
  });
});

describe("derived streak fields", () => {
  it("refuses writing current_count, longest_count or last_check_in_on through PATCH (422)", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    for (const body of [{ current_count: 10 }, { longest_count: 10 }, { last_check_in_on: "2026-11-01" }]) {
      const response = await api("PATCH", `/streaks/${id}`, { token: ada.token, body });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({ pointer: `/${Object.keys(body)[0]}`, code: "read_only" });
    }
    const created = await api("POST", "/streaks", { token: ada.token, body: { name: "x", current_count: 3 } });
    expect(created.status).toBe(422);
  });

  it("reads current_count as 0 once a day was missed, on get and list, while keeping the longest run", async () => {
    const ada = await makeMember();
    const id = await makeStreak(ada);
    // Three days in a row, ending three days ago: recorded by the service with its clock set back.
    for (const back of [5, 4, 3]) {
      await sqlAsService("select app_private.check_in_streak_at($1, $2, null, '', now() - make_interval(days => $3))", [
        ada.id,
        id,
        back,
      ]);
    }
    const expected = { current_count: 0, longest_count: 3, last_check_in_on: await dayOffset("UTC", -3) };
    expect((await api("GET", `/streaks/${id}`, { token: ada.token })).body).toMatchObject(expected);
    const list = await api("GET", "/streaks", { token: ada.token });
    expect(list.body.data.find((s: { id: string }) => s.id === id)).toMatchObject(expected);
    const renamed = await api("PATCH", `/streaks/${id}`, { token: ada.token, body: { name: "Walk" } });
    expect(renamed.body).toMatchObject({ name: "Walk", ...expected });
    const today = await checkIn(ada, id);
    expect(today.body.streak).toMatchObject({ current_count: 1, longest_count: 3 });
  });

  it("keeps the check-in table out of the API surface", async () => {
    const ada = await makeMember();
    for (const path of ["/streak-check-ins", "/check-ins", "/streak_check_ins"]) {
      expect((await api("GET", path, { token: ada.token })).status).toBe(404);
    }
  });
});
