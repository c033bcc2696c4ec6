import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

const fresh = (prefix = "Ch") => `${prefix}_${randomUUID().slice(0, 8)}`;
const create = (owner: TestMember, handle: string) =>
  api("POST", "/channels", { token: owner.token, body: { handle, title: "Late night jazz" } });

describe("channels", () => {
  it("keeps handles unique regardless of case (409 with the store's reason)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const handle = fresh("Jazz");
    expect((await create(ada, handle)).status).toBe(201);
    expectStoreRefusal(await create(bob, handle.toLowerCase()), {
      status: 409,
      code: "conflict",
      sqlstate: "23505",
      message: /handle/,
    });
    const other = (await create(bob, fresh())).body.id;
    const rename = await api("PATCH", `/channels/${other}`, {
      token: bob.token,
      body: { handle: handle.toUpperCase() },
    });
    expectStoreRefusal(rename, { status: 409, code: "conflict", sqlstate: "23505", message: /handle/ });
  });

  it.each(["ab", "a".repeat(31), "has-dash", "has space", "émile"])("refuses the handle %j (422)", async (handle) => {
    const ada = await makeMember();
    const response = await create(ada, handle);
    expect(response.status).toBe(422);
    expect(response.body.errors[0].pointer).toBe("/handle");
  });

  it("is readable by every member and listed per owner", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const id = (await create(ada, fresh())).body.id;
    expect((await api("GET", `/channels/${id}`, { token: bob.token })).body.owner_id).toBe(ada.id);
    const listed = await api("GET", `/channels?owner=${ada.id}`, { token: bob.token });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it("is changed only by its owner and never deleted (405)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const id = (await create(ada, fresh())).body.id;
    expect((await api("PATCH", `/channels/${id}`, { token: bob.token, body: { title: "Taken" } })).status).toBe(403);
    const renamed = await api("PATCH", `/channels/${id}`, { token: ada.token, body: { title: "Early jazz" } });
    expect(renamed.body.title).toBe("Early jazz");
    const removed = await api("DELETE", `/channels/${id}`, { token: ada.token });
    expect(removed.status).toBe(405);
    expect(removed.headers.get("allow")).not.toContain("DELETE");
    expect((await api("GET", `/channels/${id}`, { token: bob.token })).body.title).toBe("Early jazz");
  });
});
