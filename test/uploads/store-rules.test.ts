import { describe, expect, it } from "vitest";
import { asMember } from "@/lib/db";
import { makeMember } from "../support/factories";

/** The rules hold in the database itself, whatever code path writes (no API in between). */
const sqlError = async (memberId: string, sql: string, params: unknown[] = []) => {
  try {
    await asMember(memberId, (tx) => tx.query(sql, params));
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error(`expected the store to refuse: ${sql}`);
};

describe("uploads in the store", () => {
  it("mints only for a Pro member (PDS01), whatever calls the function", async () => {
    const free = await makeMember({ plan: "free" });
    const refused = await sqlError(free.id, "select app_private.mint_upload('avatar', 'image/png', 10, 600)");
    expect(refused.code).toBe("PDS01");
    const pro = await makeMember({ plan: "pro" });
    const [row] = await asMember(pro.id, (tx) =>
      tx.query<{ minted: { key: string } }>("select app_private.mint_upload('avatar', 'image/png', 10, 600) as minted"),
    );
    expect(row?.minted.key).toMatch(/^avatar\//);
  });

  it("gives members no direct way to read, write or complete upload records", async () => {
    const pro = await makeMember({ plan: "pro" });
    expect((await sqlError(pro.id, "select * from app_private.uploads")).code).toBe("42501");
    const insert = `insert into app_private.uploads (key, owner_id, purpose, content_type, size, status, expires_at)
      values ('avatar/00000000-0000-4000-8000-000000000001', $1, 'avatar', 'image/png', 1, 'complete', now())`;
    expect((await sqlError(pro.id, insert, [pro.id])).code).toBe("42501");
    const complete =
      "select app_private.complete_upload('avatar/00000000-0000-4000-8000-000000000001', 'image/png', 1)";
    expect((await sqlError(pro.id, complete)).code).toBe("42501");
    const probe = "select app_private.check_upload_key('avatar/00000000-0000-4000-8000-000000000001', 'avatar', $1)";
    expect((await sqlError(pro.id, probe, [pro.id])).code).toBe("42501");
  });

  it("refuses an unknown key written straight into a profile, message or item", async () => {
    const pro = await makeMember({ plan: "pro" });
    const key = "avatar/00000000-0000-4000-8000-000000000002";
    const profile = await sqlError(pro.id, "update public.profiles set avatar_key = $1 where id = $2", [key, pro.id]);
    expect(profile).toMatchObject({ code: "42501" });
    expect(profile.message).toMatch(/does not name an upload of this member/);
  });
});
