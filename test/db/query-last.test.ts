import { describe, expect, it } from "vitest";
import { asMember, asService } from "@/lib/db";
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

// queryCommit sends a write's last statement with COMMIT (lib/db/types.ts): one round trip less per
// create, update and delete on the server.
describe("queryCommit, a write's last statement", () => {
  it("runs as the member and keeps what it wrote; a statement after it is refused", async () => {
    const member = await makeMember();
    const name = `queryCommit ${member.id}`;
    const after = await asMember(member.id, async (tx) => {
      const [made] = await tx.queryCommit<{ owner: string; role: string }>(
        "insert into public.collections (name, type) values ($1, 'music') returning owner_id::text as owner, current_user::text as role",
        [name],
      );
      expect(made).toEqual({ owner: member.id, role: "authenticated" });
      return tx.query("select 1").then(
        () => "ran",
        (error: Error) => error.message,
      );
    });
    expect(after).toBe(ENDED);
    const kept = await asMember(member.id, (tx) =>
      tx.query("select id from public.collections where name = $1", [name]),
    );
    expect(kept).toHaveLength(1);
  });

  it("keeps nothing when its statement fails, and gives the store's own error", async () => {
    const member = await makeMember();
    const other = await makeMember();
    // RLS: a row for another owner is refused by the insert policy.
    await expect(
      asMember(member.id, (tx) =>
        tx.queryCommit("insert into public.collections (name, type, owner_id) values ('not mine', 'music', $1)", [
          other.id,
        ]),
      ),
    ).rejects.toMatchObject({ code: "42501" });
    const kept = await asMember(other.id, (tx) =>
      tx.query("select id from public.collections where name = 'not mine'"),
    );
    expect(kept).toEqual([]);
  });

  it("makes a failed COMMIT the transaction's error", async () => {
    // A deferred unique check runs at COMMIT, after the statement itself succeeded.
    const failed = asService(async (tx) => {
      await tx.query("create temp table deferred_check (n int unique deferrable initially deferred) on commit drop");
      return tx.queryCommit("insert into pg_temp.deferred_check values (1), (1)");
    });
    await expect(failed).rejects.toMatchObject({ code: "23505" });
    const [row] = await asService((tx) => tx.queryLast<{ n: number }>("select 3 as n"));
    expect(row).toEqual({ n: 3 });
  });
});
