import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { sqlAsMember, sqlErrorAsMember } from "../support/store";

/**
 * The domain rules hold for a client that skips the API and speaks SQL as role authenticated
 * (what a leaked database credential with a member's claims could do).
 */
async function streakOf(owner: TestMember): Promise<string> {
  return (await api("POST", "/streaks", { token: owner.token, body: { name: "Run" } })).body.id;
}

describe("streaks and check-ins in SQL", () => {
  it("has no write path into the check-in table", async () => {
    const ada = await makeMember();
    const id = await streakOf(ada);
    const insert = await sqlErrorAsMember(
      ada.id,
      "insert into public.streak_check_ins (streak_id, owner_id, day) values ($1, $2, current_date)",
      [id, ada.id],
    );
    expect(insert).toMatchObject({ code: "42501", message: expect.stringContaining("permission denied") });
    await sqlAsMember(ada.id, "select public.check_in_streak($1)", [id]);
    for (const sql of [
      "update public.streak_check_ins set day = day - 1 where streak_id = $1",
      "delete from public.streak_check_ins where streak_id = $1",
    ]) {
      expect(await sqlErrorAsMember(ada.id, sql, [id])).toMatchObject({ code: "42501" });
    }
  });

  it("cannot write a streak's counts, on the table or through the view", async () => {
    const ada = await makeMember();
    const id = await streakOf(ada);
    // No grant on the table's derived columns; on the view the column is computed, so not updatable at all.
    const attempts: [string, string][] = [
      [`update public.streaks set current_count = 100 where id = '${id}'`, "42501"],
      [`update public.streaks set longest_count = 100, last_check_in_on = current_date where id = '${id}'`, "42501"],
      ["insert into public.streaks (name, current_count) values ('x', 50)", "42501"],
      [`update public.streaks_with_counts set current_count = 100 where id = '${id}'`, "0A000"],
      [`update public.streaks_with_counts set longest_count = 100 where id = '${id}'`, "42501"],
    ];
    for (const [sql, code] of attempts) {
      expect(await sqlErrorAsMember(ada.id, sql), sql).toMatchObject({ code });
    }
    const [row] = await sqlAsMember(ada.id, "select current_count, longest_count from public.streaks where id = $1", [
      id,
    ]);
    expect(row).toEqual({ current_count: 0, longest_count: 0 });
  });

  it("checks in only on the caller's own streak, never in the future, never with a chosen clock", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const id = await streakOf(ada);
    expect(await sqlErrorAsMember(bob.id, "select public.check_in_streak($1)", [id])).toMatchObject({
      code: "42501",
      message: expect.stringContaining("belongs to this member"),
    });
    expect(await sqlErrorAsMember(ada.id, "select public.check_in_streak($1, current_date + 2)", [id])).toMatchObject({
      code: "22023",
    });
    const backdoor = await sqlErrorAsMember(
      ada.id,
      "select app_private.check_in_streak_at($1, $2, null, '', now() + interval '30 days')",
      [ada.id, id],
    );
    expect(backdoor).toMatchObject({ code: "42501", message: expect.stringContaining("permission denied") });
  });
});

describe("blocks, follows and messages in SQL", () => {
  async function blockedPair() {
    const ada = await makeMember();
    const bob = await makeMember();
    await sqlAsMember(bob.id, "insert into public.blocks (blocked_id) values ($1)", [ada.id]);
    return { ada, bob };
  }

  it("refuses messaging or following someone who blocked you, and the blocker too", async () => {
    const { ada, bob } = await blockedPair();
    const blocked = { code: "42501", message: expect.stringContaining("blocked") };
    const message = "insert into public.messages (recipient_id, body) values ($1, 'hi')";
    expect(await sqlErrorAsMember(ada.id, message, [bob.id])).toMatchObject(blocked);
    expect(await sqlErrorAsMember(bob.id, message, [ada.id])).toMatchObject(blocked);
    const follow = "insert into public.follows (followee_id) values ($1)";
    expect(await sqlErrorAsMember(ada.id, follow, [bob.id])).toMatchObject(blocked);
    expect(await sqlErrorAsMember(bob.id, follow, [ada.id])).toMatchObject(blocked);
  });

  it("keeps blocks to their maker: not readable, not liftable, not makeable for others, no probing", async () => {
    const { ada, bob } = await blockedPair();
    const eve = await makeMember();
    expect(await sqlAsMember(ada.id, "select * from public.blocks")).toEqual([]);
    expect(await sqlAsMember(ada.id, "delete from public.blocks where blocked_id = $1 returning 1", [ada.id])).toEqual(
      [],
    );
    expect(
      await sqlErrorAsMember(eve.id, "insert into public.blocks (blocker_id, blocked_id) values ($1, $2)", [
        ada.id,
        bob.id,
      ]),
    ).toMatchObject({ code: "42501" });
    expect(
      await sqlErrorAsMember(eve.id, "select app_private.blocked_between($1, $2)", [ada.id, bob.id]),
    ).toMatchObject({ code: "42501" });
  });

  it("refuses sending as someone else, attachments without consent, self-follows and duplicates", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect(
      await sqlErrorAsMember(
        ada.id,
        "insert into public.messages (sender_id, recipient_id, body) values ($1, $2, 'x')",
        [bob.id, ada.id],
      ),
    ).toMatchObject({ code: "42501" });
    expect(
      await sqlErrorAsMember(
        ada.id,
        "insert into public.messages (recipient_id, body, attachment_url) values ($1, 'x', 'https://example.com/a.png')",
        [bob.id],
      ),
    ).toMatchObject({ code: "42501", message: expect.stringContaining("attachment consent: following") });
    expect(
      await sqlErrorAsMember(ada.id, "insert into public.follows (followee_id) values ($1)", [ada.id]),
    ).toMatchObject({ code: "23514" });
    await sqlAsMember(ada.id, "insert into public.follows (followee_id) values ($1)", [bob.id]);
    expect(
      await sqlErrorAsMember(ada.id, "insert into public.follows (followee_id) values ($1)", [bob.id]),
    ).toMatchObject({ code: "23505" });
    expect(await sqlErrorAsMember(ada.id, "update public.messages set body = 'edited'")).toMatchObject({
      code: "42501",
    });
  });

  it("shows a conversation to nobody outside it", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const eve = await makeMember();
    await sqlAsMember(ada.id, "insert into public.messages (recipient_id, body) values ($1, 'secret')", [bob.id]);
    expect(
      await sqlAsMember(eve.id, "select * from public.messages where sender_id = $1 or recipient_id = $1", [ada.id]),
    ).toEqual([]);
  });
});

describe("profile, channels, collection types, todos and goals in SQL", () => {
  it("refuses a plan change and an update of someone else's profile", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect(
      await sqlErrorAsMember(ada.id, "update public.profiles set plan = 'pro' where id = $1", [ada.id]),
    ).toMatchObject({
      code: "42501",
    });
    expect(
      await sqlAsMember(ada.id, "update public.profiles set bio = 'pwned' where id = $1 returning id", [bob.id]),
    ).toEqual([]);
  });

  it("has no delete on channels and keeps handles unique regardless of case", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const handle = `Sql_${randomUUID().slice(0, 8)}`;
    const [channel] = await sqlAsMember<{ id: string }>(
      ada.id,
      "insert into public.channels (handle, title) values ($1, 't') returning id",
      [handle],
    );
    expect(await sqlErrorAsMember(ada.id, "delete from public.channels where id = $1", [channel?.id])).toMatchObject({
      code: "42501",
    });
    expect(
      await sqlErrorAsMember(bob.id, "insert into public.channels (handle, title) values ($1, 't')", [
        handle.toLowerCase(),
      ]),
    ).toMatchObject({ code: "23505" });
    expect(
      await sqlAsMember(bob.id, "update public.channels set title = 'mine' where id = $1 returning id", [channel?.id]),
    ).toEqual([]);
  });

  it("refuses a collection of a switched-off type and any change to the set of types", async () => {
    const ada = await makeMember();
    await sqlAsMember(ada.id, "update public.collection_types set enabled = false where type = 'places'");
    expect(
      await sqlErrorAsMember(ada.id, "insert into public.collections (name, type) values ('x', 'places')"),
    ).toMatchObject({ code: "42501", message: expect.stringContaining('"places" is switched off') });
    expect(await sqlErrorAsMember(ada.id, "delete from public.collection_types")).toMatchObject({ code: "42501" });
    expect(await sqlErrorAsMember(ada.id, "insert into public.collection_types (type) values ('music')")).toMatchObject(
      { code: "42501" },
    );
  });

  it("validates recurrence and reminders and keeps completed_at to the store", async () => {
    const ada = await makeMember();
    expect(
      await sqlErrorAsMember(
        ada.id,
        "insert into public.todos (title, due_at, recurrence) values ('x', now(), 'FREQ=DAILY;BYDAY=MO')",
      ),
    ).toMatchObject({ code: "22023", message: expect.stringContaining("BYDAY is supported only with FREQ=WEEKLY") });
    expect(
      await sqlErrorAsMember(ada.id, "insert into public.todos (title, reminders) values ('x', '{-1}')"),
    ).toMatchObject({ code: "23514" });
    expect(
      await sqlErrorAsMember(ada.id, "insert into public.todos (title, reminders) values ('x', '{1,2,3,4,5,6}')"),
    ).toMatchObject({ code: "23514" });
    expect(await sqlErrorAsMember(ada.id, "update public.todos set completed_at = now()")).toMatchObject({
      code: "42501",
    });
    const [todo] = await sqlAsMember<{ status: string; due_at: string; completed: boolean }>(
      ada.id,
      `insert into public.todos (title, due_at, recurrence, status)
       values ('x', '2031-06-02T08:00:00Z', 'FREQ=WEEKLY', 'done')
       returning status, to_jsonb(due_at) #>> '{}' as due_at, completed_at is not null as completed`,
    );
    expect(todo).toEqual({ status: "open", due_at: "2031-06-09T08:00:00+00:00", completed: true });
  });

  it("keeps goal values non-negative and achieves a goal at its target", async () => {
    const ada = await makeMember();
    expect(
      await sqlErrorAsMember(
        ada.id,
        "insert into public.goals (title, target_value, current_value) values ('x', 1, -1)",
      ),
    ).toMatchObject({ code: "23514" });
    const [goal] = await sqlAsMember<{ status: string }>(
      ada.id,
      "insert into public.goals (title, target_value, current_value) values ('x', 3, 3) returning status",
    );
    expect(goal?.status).toBe("achieved");
  });
});
