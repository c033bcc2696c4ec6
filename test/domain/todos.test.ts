import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

async function memberIn(timezone: string): Promise<TestMember> {
  const member = await makeMember();
  const patched = await api("PATCH", "/profile", { token: member.token, body: { timezone } });
  expect(patched.status).toBe(200);
  return member;
}

async function recurring(owner: TestMember, recurrence: string, due_at: string): Promise<string> {
  const created = await api("POST", "/todos", { token: owner.token, body: { title: "t", recurrence, due_at } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

const complete = (owner: TestMember, id: string) =>
  api("PATCH", `/todos/${id}`, { token: owner.token, body: { status: "done" } });

describe("todo recurrence", () => {
  it.each([
    ["FREQ=YEARLY", "FREQ=YEARLY is not supported: use DAILY, WEEKLY or MONTHLY"],
    ["FREQ=DAILY;COUNT=3", "COUNT is not supported: only FREQ, INTERVAL and BYDAY"],
    ["FREQ=DAILY;BYDAY=MO", "BYDAY is supported only with FREQ=WEEKLY"],
    ["FREQ=WEEKLY;BYDAY=1MO", "BYDAY must list days as MO,TU,WE,TH,FR,SA,SU (no ordinals)"],
    ["INTERVAL=2", "recurrence needs FREQ"],
    ["FREQ=DAILY;INTERVAL=0", "INTERVAL must be a whole number from 1 to 999"],
    ["FREQ=DAILY;FREQ=WEEKLY", "recurrence repeats FREQ"],
    ["freq=daily", 'recurrence part "freq=daily" is not KEY=VALUE'],
    ["", "recurrence must not be empty (send null for none)"],
  ])("refuses %j with 422 saying what is wrong", async (recurrence, message) => {
    const ada = await makeMember();
    const response = await api("POST", "/todos", {
      token: ada.token,
      body: { title: "t", recurrence, due_at: "2030-01-07T09:00:00Z" },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toContainEqual(expect.objectContaining({ pointer: "/recurrence", message }));
  });

  it("refuses a recurring todo without due_at, on create and by clearing due_at later (store's reason)", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/todos", { token: ada.token, body: { title: "t", recurrence: "FREQ=DAILY" } });
    expectStoreRefusal(created, { status: 422, code: "invalid_request", sqlstate: "22023", message: /needs due_at/ });
    const id = await recurring(ada, "FREQ=DAILY", "2030-01-07T09:00:00Z");
    const cleared = await api("PATCH", `/todos/${id}`, { token: ada.token, body: { due_at: null } });
    expectStoreRefusal(cleared, { status: 422, code: "invalid_request", sqlstate: "22023", message: /needs due_at/ });
  });

  it("marks a one-off todo done and records when", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/todos", { token: ada.token, body: { title: "once" } });
    expect(created.body).toMatchObject({ status: "open", completed_at: null, recurrence: null });
    const before = Date.now();
    const done = await complete(ada, created.body.id);
    expect(done.body.status).toBe("done");
    expect(Date.parse(done.body.completed_at)).toBeGreaterThan(before - 60_000);
    const reopened = await api("PATCH", `/todos/${created.body.id}`, { token: ada.token, body: { status: "open" } });
    expect(reopened.body).toMatchObject({ status: "open", completed_at: done.body.completed_at });
  });

  it("moves a daily todo to the next day, keeps it open and records the completion", async () => {
    const ada = await memberIn("UTC");
    const id = await recurring(ada, "FREQ=DAILY", "2030-01-10T09:00:00Z");
    const done = await complete(ada, id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "open", due_at: "2030-01-11T09:00:00+00:00" });
    expect(done.body.completed_at).toEqual(expect.any(String));
    expect((await api("GET", `/todos/${id}`, { token: ada.token })).body.due_at).toBe("2030-01-11T09:00:00+00:00");
  });

  it("steps a weekly todo through its BYDAY days, INTERVAL weeks apart", async () => {
    const ada = await memberIn("UTC");
    const id = await recurring(ada, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "2030-01-07T09:00:00Z"); // a Monday
    const dues = [];
    for (let i = 0; i < 3; i++) dues.push((await complete(ada, id)).body.due_at);
    expect(dues).toEqual(["2030-01-10T09:00:00+00:00", "2030-01-21T09:00:00+00:00", "2030-01-24T09:00:00+00:00"]);
  });

  it("keeps a monthly todo on its day of the month, skipping months without it", async () => {
    const ada = await memberIn("UTC");
    const id = await recurring(ada, "FREQ=MONTHLY", "2030-01-31T18:00:00Z");
    expect((await complete(ada, id)).body.due_at).toBe("2030-03-31T18:00:00+00:00");
    expect((await complete(ada, id)).body.due_at).toBe("2030-05-31T18:00:00+00:00");
  });

  it("keeps the local time of day across a DST change in the member's time zone", async () => {
    const ada = await memberIn("Europe/Berlin");
    // 09:00 CET on 30 March 2030; the clocks go forward that night, so the next 09:00 is 07:00 UTC.
    const id = await recurring(ada, "FREQ=DAILY", "2030-03-30T08:00:00Z");
    expect((await complete(ada, id)).body.due_at).toBe("2030-03-31T07:00:00+00:00");
  });

  it("skips occurrences already past when an overdue recurring todo is completed", async () => {
    const ada = await memberIn("UTC");
    const id = await recurring(ada, "FREQ=DAILY", "2020-01-01T09:00:00Z");
    const due = (await complete(ada, id)).body.due_at as string;
    const next = Date.parse(due);
    expect(next).toBeGreaterThan(Date.now() - 5_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect(due).toMatch(/T09:00:00\+00:00$/);
  });
});

describe("todo reminders", () => {
  it("accepts up to five offsets in minutes and refuses more or negative ones (422)", async () => {
    const ada = await makeMember();
    const body = { title: "t", due_at: "2030-01-07T09:00:00Z" };
    const ok = await api("POST", "/todos", { token: ada.token, body: { ...body, reminders: [0, 5, 60, 1440, 10080] } });
    expect(ok.status).toBe(201);
    expect(ok.body.reminders).toEqual([0, 5, 60, 1440, 10080]);
    const six = await api("POST", "/todos", { token: ada.token, body: { ...body, reminders: [1, 2, 3, 4, 5, 6] } });
    expect(six.status).toBe(422);
    expect(six.body.errors[0].pointer).toBe("/reminders");
    const negative = await api("POST", "/todos", { token: ada.token, body: { ...body, reminders: [-5] } });
    expect(negative.status).toBe(422);
  });

  it("accepts only open or done as status", async () => {
    const ada = await makeMember();
    const response = await api("POST", "/todos", { token: ada.token, body: { title: "t", status: "doing" } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe("/status");
  });
});
