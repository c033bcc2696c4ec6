import { describe, expect, it } from "vitest";
import { UsageError } from "@/lib/cli/args";
import { COMMANDS } from "@/lib/cli/commands";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { expectStoreRefusal, sqlAsMember } from "../support/store";

const run = (command: "block" | "unblock", blocker: TestMember, blocked: TestMember) => {
  const fn = COMMANDS[command];
  if (!fn) throw new Error(`no ${command} command`);
  return fn({ email: blocker.email, blocks: blocked.email });
};

const follow = (from: TestMember, to: TestMember) =>
  api("POST", "/follows", { token: from.token, body: { followee_id: to.id } });
const message = (from: TestMember, to: TestMember) =>
  api("POST", "/messages", { token: from.token, body: { recipient_id: to.id, body: "hi" } });

describe("blocks (CLI block / unblock)", () => {
  it("refuses follows and messages in both directions while the block lasts, with the store's reason", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect(JSON.parse(await run("block", ada, bob))).toEqual({
      blocker: ada.email,
      blocked: bob.email,
      blocking: true,
    });
    const refused = { status: 403, code: "write_refused", sqlstate: "42501", message: /blocked/ };
    expectStoreRefusal(await follow(ada, bob), refused);
    expectStoreRefusal(await follow(bob, ada), refused);
    expectStoreRefusal(await message(ada, bob), refused);
    expectStoreRefusal(await message(bob, ada), refused);

    const lifted = JSON.parse(await run("unblock", ada, bob));
    expect(lifted).toMatchObject({ blocking: false, lifted: true });
    expect((await follow(bob, ada)).status).toBe(201);
    expect((await message(ada, bob)).status).toBe(201);
  });

  it("ends existing follows both ways when the block is made", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect((await follow(ada, bob)).status).toBe(201);
    expect((await follow(bob, ada)).status).toBe(201);
    await run("block", bob, ada);
    expect((await api("GET", "/follows", { token: ada.token })).body.data).toEqual([]);
    expect((await api("GET", "/follows?direction=followers", { token: ada.token })).body.data).toEqual([]);
  });

  it("is idempotent, and runs as the blocker: the blocked member cannot see or lift it", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await run("block", ada, bob);
    await run("block", ada, bob);
    expect(await sqlAsMember(ada.id, "select blocked_id from public.blocks")).toEqual([{ blocked_id: bob.id }]);
    expect(await sqlAsMember(bob.id, "select * from public.blocks")).toEqual([]);
    expect(JSON.parse(await run("unblock", bob, ada))).toMatchObject({ lifted: false });
    expectStoreRefusal(await follow(bob, ada), {
      status: 403,
      code: "write_refused",
      sqlstate: "42501",
      message: /blocked/,
    });
  });

  it("refuses self-blocks and unknown members as usage errors", async () => {
    const ada = await makeMember();
    await expect(run("block", ada, ada)).rejects.toBeInstanceOf(UsageError);
    const fn = COMMANDS.block;
    await expect(fn?.({ email: ada.email, blocks: "nobody@example.test" })).rejects.toThrow(/no member/);
    await expect(fn?.({ email: ada.email })).rejects.toThrow(/--blocks is required/);
  });

  it("is not an API resource", async () => {
    const ada = await makeMember();
    expect((await api("GET", "/blocks", { token: ada.token })).status).toBe(404);
  });
});
