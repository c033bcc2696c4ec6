import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
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

/** RFC 3339 as the API writes its timestamps (to_jsonb of a timestamptz). */
const RFC3339 = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/;

describe("undo by default: the latest write, or a refusal", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

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
});
