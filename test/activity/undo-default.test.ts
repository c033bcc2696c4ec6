import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionCaller } from "@/lib/auth/caller";
import { asService, getDb } from "@/lib/db";
import { callAsSession } from "@/lib/web/session-call";
import { ACTIVITY_SOURCES } from "@/registry/activity";
import { activityUndo } from "@/registry/operations/activity-undo";
import { proseName } from "@/registry/resource-prose";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";

// What POST /activity/undo {} takes back: the credential's latest write that is not undone yet and not an
// undo's own, or a refusal that says why; never an older write in its place.

const undo = (member: TestMember, body: Record<string, unknown> = {}) =>
  api("POST", "/activity/undo", { token: member.token, body });

const patchGoal = (member: TestMember, id: string, body: Record<string, unknown>) =>
  api("PATCH", `/goals/${id}`, { token: member.token, body });

async function goal(member: TestMember, title: string) {
  const created = await api("POST", "/goals", { token: member.token, body: { title, target_value: 10 } });
  expect(created.status).toBe(201);
  return created.body as { id: string; title: string; updated_at: string };
}

/** A member's goal titled c0, then updated to c1 and to c2: two updates to walk back. */
async function twiceRetitled() {
  const ada = await makeMember();
  const { id } = await goal(ada, "c0");
  await patchGoal(ada, id, { title: "c1" });
  await patchGoal(ada, id, { title: "c2" });
  return { ada, id };
}

const titleOf = async (member: TestMember, id: string) =>
  (await api("GET", `/goals/${id}`, { token: member.token })).body.title;

/** RFC 3339 as the API writes its timestamps (to_jsonb of a timestamptz). */
const RFC3339 = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/;

describe("undo by default: the latest write, or a refusal", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("walks back two updates of one record, one a call: the first undo's own write is no change since", async () => {
    const { ada, id } = await twiceRetitled();
    const first = await undo(ada);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(await titleOf(ada, id)).toBe("c1");
    const second = await undo(ada);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.operation).toBe("goal.updated");
    expect(await titleOf(ada, id)).toBe("c0");
    // Then the create is the latest write left: refused, and nothing older is taken back in its place.
    const third = await undo(ada);
    expect(third.status).toBe(409);
    expect(third.body.detail).toMatch(/create is not undone/);
    expect(await titleOf(ada, id)).toBe("c0");
  });

  it("reaches an earlier update of another record once the later ones are undone", async () => {
    const ada = await makeMember();
    const a = await goal(ada, "a0");
    const b = await goal(ada, "b0");
    await patchGoal(ada, a.id, { title: "a1" });
    await patchGoal(ada, b.id, { title: "b1" });
    await patchGoal(ada, b.id, { title: "b2" });
    for (let i = 0; i < 3; i++) expect((await undo(ada)).status).toBe(200);
    expect([await titleOf(ada, a.id), await titleOf(ada, b.id)]).toEqual(["a0", "b0"]);
  });

  it("a genuine conflict names the fields, stays the default, and points to the older write to name instead", async () => {
    const ada = await makeMember();
    const a = await goal(ada, "a0");
    const b = await goal(ada, "b0");
    await patchGoal(ada, a.id, { title: "a1" });
    await patchGoal(ada, b.id, { title: "b1" });
    // The member edits b from the page afterwards.
    const edit = await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "goals_update",
      { id: b.id, unit: "pages" },
      new Headers({ "x-request-id": randomUUID() }),
    );
    expect(edit.ok).toBe(true);
    for (let i = 0; i < 2; i++) {
      const refused = await undo(ada);
      expect(refused.status).toBe(409);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: "/unit", code: "changed_since" })]);
      expect(refused.body.detail).toMatch(/activity_id/);
    }
    expect(await titleOf(ada, b.id)).toBe("b1");
    // The older write, named as the refusal names it, is undone.
    const older = /activity_id ([0-9a-f-]{36})/.exec((await undo(ada)).body.detail)?.[1];
    const named = await undo(ada, { activity_id: older });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.record_id).toBe(a.id);
    expect(await titleOf(ada, a.id)).toBe("a0");
  });

  it("an undo taken back again is a change since: the earlier update is refused, naming the field", async () => {
    const { ada, id } = await twiceRetitled();
    const undone = await undo(ada);
    const [undoWrite] = await asService((tx) =>
      tx.query<{ id: string }>("select id from app_private.webhook_events where undo_of = $1", [
        undone.body.activity_id,
      ]),
    );
    expect((await undo(ada, { activity_id: undoWrite?.id })).status).toBe(200);
    expect(await titleOf(ada, id)).toBe("c2");
    const refused = await undo(ada);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: "/title", code: "changed_since" })]);
    expect(await titleOf(ada, id)).toBe("c2");
  });

  it("a record deleted and brought back by undo reads as the update left it: that update is undone next", async () => {
    const ada = await makeMember();
    const { id } = await goal(ada, "c0");
    await patchGoal(ada, id, { title: "c1" });
    expect((await api("DELETE", `/goals/${id}`, { token: ada.token })).status).toBe(204);
    expect((await undo(ada)).body.operation).toBe("goal.deleted");
    const update = await undo(ada);
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    expect(await titleOf(ada, id)).toBe("c0");
  });

  it("a changed-since refusal never has an empty list of what changed", async () => {
    const ada = await makeMember();
    const { id } = await goal(ada, "c0");
    await patchGoal(ada, id, { title: "c1" });
    // The member writes the same title back from the page: only the write's time tells.
    const same = await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "goals_update",
      { id, title: "c0" },
      new Headers({ "x-request-id": randomUUID() }),
    );
    expect(same.ok).toBe(true);
    await callAsSession(
      sessionCaller(ada.id, randomUUID()),
      "goals_update",
      { id, title: "c1" },
      new Headers({ "x-request-id": randomUUID() }),
    );
    const refused = await undo(ada);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: "/updated_at", code: "changed_since" })]);
    expect(refused.body.detail).toMatch(/updated_at/);
  });

  it("passes over refused attempts, which wrote nothing; with no write left, 404", async () => {
    const ada = await makeMember();
    expect((await undo(ada)).status).toBe(404);
    const { id } = await goal(ada, "c0");
    await patchGoal(ada, id, { title: "c1" });
    expect((await patchGoal(ada, id, { target_value: -1 })).status).toBe(422);
    const undone = await undo(ada);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(await titleOf(ada, id)).toBe("c0");
  });

  it("refuses a collection types switch, the latest write, instead of reverting an older rename", async () => {
    const ada = await makeMember();
    const collection = (await api("POST", "/collections", { token: ada.token, body: { name: "Old", type: "music" } }))
      .body;
    await api("PATCH", `/collections/${collection.id}`, { token: ada.token, body: { name: "New" } });
    expect((await api("PATCH", "/collection-types", { token: ada.token, body: { books: false } })).status).toBe(200);
    const refused = await undo(ada);
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body.detail).toMatch(/collection types/);
    expect((await api("GET", `/collections/${collection.id}`, { token: ada.token })).body.name).toBe("New");
    const types = (await api("GET", "/collection-types", { token: ada.token })).body.data;
    expect(types.find((row: { type: string }) => row.type === "books").enabled).toBe(false);
  });

  it("says when a write was already undone in RFC 3339, as the API writes times", async () => {
    const ada = await makeMember();
    const { id } = await goal(ada, "c0");
    await patchGoal(ada, id, { title: "c1" });
    const undone = await undo(ada);
    expect(undone.status).toBe(200);
    const again = await undo(ada, { activity_id: undone.body.activity_id });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(RFC3339);
    expect(again.body.detail).not.toMatch(/GMT/);
    const stamp = RFC3339.exec(again.body.detail)?.[0] ?? "";
    const written = (await api("GET", `/goals/${id}`, { token: ada.token })).body.updated_at as string;
    // Written as the record's own times are (the same offset form).
    expect(stamp.slice(-6)).toBe(written.slice(-6));
  });

  it("the operation's description names every kind of record whose writes it cannot take back", () => {
    const withoutImage = ACTIVITY_SOURCES.filter((source) => !source.image && source.on !== "insert");
    expect(withoutImage.length).toBeGreaterThan(0);
    for (const source of withoutImage) expect(activityUndo.description).toContain(proseName(source.resource));
    expect(activityUndo.description).toMatch(/activity_id/);
  });
});
