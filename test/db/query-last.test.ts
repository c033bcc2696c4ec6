import { describe, expect, it } from "vitest";
import { asMember } from "@/lib/db";
import { ENDED } from "@/lib/db/types";
import { makeMember } from "../support/factories";

// queryLast sends a read's statement with the end of its transaction (lib/db/types.ts). On the
// server both leave in one write, so the order they are queued in decides whether the read runs
// as the member at all: an early version ran it after the ROLLBACK, as the connection's own role.
describe("queryLast, a read's last statement", () => {
  it("runs inside the member's transaction, with the member's role and claims", async () => {
    const member = await makeMember();
    const [row] = await asMember(member.id, (tx) =>
      tx.queryLast<{ role: string; uid: string }>("select current_user::text as role, auth.uid()::text as uid"),
    );
    expect(row).toEqual({ role: "authenticated", uid: member.id });
  });

  it("ends the transaction: a statement after it is refused, and nothing it wrote is kept", async () => {
    const member = await makeMember();
    const name = `queryLast ${member.id}`;
    const after = await asMember(member.id, async (tx) => {
      const [made] = await tx.queryLast<{ id: string }>(
        "insert into public.collections (name, type) values ($1, 'music') returning id",
        [name],
      );
      expect(made?.id).toBeTruthy();
      return tx.query("select 1").then(
        () => "ran",
        (error: Error) => error.message,
      );
    });
    expect(after).toBe(ENDED);
    const kept = await asMember(member.id, (tx) =>
      tx.query("select id from public.collections where name = $1", [name]),
    );
    expect(kept).toEqual([]);
  });

  it("gives the statement's own error when it fails, and the connection serves the next transaction", async () => {
    const member = await makeMember();
    await expect(asMember(member.id, (tx) => tx.queryLast("select 1 / 0"))).rejects.toMatchObject({ code: "22012" });
    const [row] = await asMember(member.id, (tx) => tx.queryLast<{ n: number }>("select 2 as n"));
    expect(row).toEqual({ n: 2 });
  });
});
