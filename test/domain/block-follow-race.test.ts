import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { blockByHandle } from "@/lib/web/blocks";
import { api } from "../support/api";
import { raceBlockAndFollow } from "../support/block-follow-race";
import { makeMember, type TestMember } from "../support/factories";
import { sqlAsService } from "../support/store";

describe("block vs. follow race", () => {
  it("no follow survives a block made at the same moment (200 races)", async () => {
    const figures = await raceBlockAndFollow(200);
    console.log(
      `block/follow races on ${process.env.DATABASE_URL ? "postgres" : "pglite"}: ${JSON.stringify(figures)}`,
    );
    expect(figures.races).toBe(200);
    expect(figures.survivors).toBe(0);
  }, 300_000);
});

// The two orders, each held open on a connection of its own while the other side's real request
// runs: the request must wait for the pair's lock, and then (READ COMMITTED) see what was committed.
describe.runIf(process.env.DATABASE_URL)("block vs. follow, one side held open (Postgres)", () => {
  const own = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
  afterAll(() => own.end({ timeout: 1 }));

  const asMemberOnOwnConnection = (tx: postgres.TransactionSql, member: TestMember) =>
    tx.unsafe("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: member.id, role: "authenticated" }),
    ]);

  /** Whether a backend of this database is waiting on an advisory lock (polled for up to 3 s). */
  async function someoneWaitsOnTheLock(): Promise<boolean> {
    for (let i = 0; i < 60; i++) {
      const [row] = await sqlAsService<{ waiting: number }>(
        `select count(*)::int as waiting from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
      );
      if ((row?.waiting ?? 0) > 0) return true;
      await sleep(50);
    }
    return false;
  }

  const followsBetween = async (a: TestMember, b: TestMember) =>
    (
      await sqlAsService(
        `select 1 from public.follows
         where (follower_id = $1 and followee_id = $2) or (follower_id = $2 and followee_id = $1)`,
        [a.id, b.id],
      )
    ).length;

  it("a follow asked for while a block is uncommitted waits for it, then is refused", async () => {
    const [ada, bob] = await Promise.all([makeMember(), makeMember()]);
    let waited = false;
    let follow: ReturnType<typeof api> | undefined;
    await own.begin(async (tx) => {
      await asMemberOnOwnConnection(tx, bob);
      await tx.unsafe("insert into public.blocks (blocked_id) values ($1)", [ada.id]);
      follow = api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } });
      waited = await someoneWaitsOnTheLock();
    });
    const response = await follow;
    expect(waited).toBe(true);
    expect(response?.status, JSON.stringify(response?.body)).toBe(403);
    expect(response?.body.reason?.message).toMatch(/blocked/);
    expect(await followsBetween(ada, bob)).toBe(0);
  });

  it("a block made while a follow is uncommitted waits for it, then ends it", async () => {
    const [ada, bob] = await Promise.all([makeMember(), makeMember()]);
    let waited = false;
    let block: ReturnType<typeof blockByHandle> | undefined;
    await own.begin(async (tx) => {
      await asMemberOnOwnConnection(tx, ada);
      await tx.unsafe("insert into public.follows (followee_id) values ($1)", [bob.id]);
      block = blockByHandle(bob.id, ada.handle);
      waited = await someoneWaitsOnTheLock();
    });
    expect(await block).toEqual({ ok: true, handle: ada.handle });
    expect(waited).toBe(true);
    expect(await followsBetween(ada, bob)).toBe(0);
  });
});
