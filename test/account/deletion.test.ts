import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember } from "@/lib/auth/members";
import { createToken } from "@/lib/auth/tokens";
import { asService } from "@/lib/db";
import { deleteAccountWithPassword } from "@/lib/web/account-delete";
import { deleteAccount } from "@/lib/auth/account-deletion";
import { memberResources } from "@/registry/member-resources";
import { SCOPES } from "@/registry/scopes";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { creatable, rowsNaming } from "../support/isolation";
import { createRow } from "../support/resource-fixtures";
import { uploaded, useLocalStorage } from "../uploads/support/storage";

let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

async function memberWithPassword(password: string) {
  const member = await createMember({ email: `del-${crypto.randomUUID()}@example.test`, password, plan: "pro" });
  const { token } = await createToken({ memberId: member.id, name: "t", scopes: SCOPES });
  return { id: member.id, token };
}

const count = async (sql: string, params: unknown[]) => {
  const [row] = await asService((tx) => tx.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params));
  return row?.n ?? -1;
};

describe("account deletion", () => {
  it("takes every row of every member resource with it, whichever column names the member", async () => {
    const ada = await makeMember();
    const made = creatable(memberResources);
    for (const resource of made) await createRow(resource, ada);
    for (const resource of made) expect(await rowsNaming(resource, ada.id), resource.name).toBeGreaterThan(0);
    expect(await deleteAccount(ada.id)).toBe(true);
    for (const resource of made) expect(await rowsNaming(resource, ada.id), resource.name).toBe(0);
  });

  it("refuses a wrong password and deletes nothing", async () => {
    const ada = await memberWithPassword("correct horse battery");
    expect(await deleteAccountWithPassword(ada.id, "wrong password!", "198.51.100.7")).toEqual({
      ok: false,
      error: "That is not your password; nothing was deleted.",
    });
    expect((await api("GET", "/profile", { token: ada.token })).status).toBe(200);
  });

  it("removes every row, ends tokens, purges uploads, and leaves the other member consistent", async () => {
    const ada = await memberWithPassword("correct horse battery");
    const bob = await makeMember();
    const col = await api("POST", "/collections", { token: ada.token, body: { name: "gone", type: "music" } });
    expect(col.status).toBe(201);
    await api("POST", "/todos", { token: ada.token, body: { title: "gone too" } });
    expect((await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } })).status).toBe(201);
    expect((await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } })).status).toBe(201);
    await api("POST", "/messages", { token: bob.token, body: { recipient_id: ada.id, body: "to ada" } });
    await api("POST", "/messages", { token: ada.token, body: { recipient_id: bob.id, body: "from ada" } });
    const bobTodo = await api("POST", "/todos", { token: bob.token, body: { title: "bob stays" } });
    const avatar = await uploaded(ada.token, "avatar");
    expect((await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: avatar } })).status).toBe(200);
    expect(fs.existsSync(path.join(storage.dir, avatar))).toBe(true);

    expect(await deleteAccountWithPassword(ada.id, "correct horse battery", "198.51.100.8")).toEqual({ ok: true });

    expect((await api("GET", "/profile", { token: ada.token })).status).toBe(401);
    for (const table of [
      "auth.users where id = $1",
      "public.profiles where id = $1",
      "public.collections where owner_id = $1",
      "public.todos where owner_id = $1",
      "public.messages where sender_id = $1 or recipient_id = $1",
      "public.follows where follower_id = $1 or followee_id = $1",
      "app_private.access_tokens where member_id = $1",
      "app_private.sessions where member_id = $1",
      "app_private.uploads where owner_id = $1",
    ]) {
      expect(await count(table, [ada.id]), table).toBe(0);
    }
    // The bytes are gone and nothing is left queued.
    expect(fs.existsSync(path.join(storage.dir, avatar))).toBe(false);
    expect(await count("app_private.upload_purges where key = $1", [avatar])).toBe(0);

    // Bob: his follow of Ada and their conversation are gone; his own rows stay.
    expect((await api("GET", "/follows", { token: bob.token })).body.data).toEqual([]);
    expect((await api("GET", "/follows?direction=followers", { token: bob.token })).body.data).toEqual([]);
    expect((await api("GET", "/messages", { token: bob.token })).body.data).toEqual([]);
    expect((await api("GET", `/todos/${bobTodo.body.id}`, { token: bob.token })).status).toBe(200);
    expect((await api("GET", `/collections/${col.body.id}`, { token: bob.token })).status).toBe(404);
    expect((await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } })).status).toBe(422);
  });

  it("purges a queued key whose object is already gone (purges are idempotent)", async () => {
    const key = `avatar/${crypto.randomUUID()}`;
    await asService((tx) => tx.query("insert into app_private.upload_purges (key) values ($1)", [key]));
    const { purgeQueuedUploads } = await import("@/lib/domain/uploads/purge");
    expect(await purgeQueuedUploads()).toBeGreaterThanOrEqual(1);
    expect(await count("app_private.upload_purges where key = $1", [key])).toBe(0);
  });
});
