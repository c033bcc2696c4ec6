import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { beforeAll, describe, expect, it } from "vitest";
import { createMember } from "@/lib/auth/members";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/auth/passwords";
import { endSessionById, listSessions } from "@/lib/auth/sessions";
import { asService, getDb } from "@/lib/db";
import { signIn } from "@/lib/web/accounts";
import { builtinAuth } from "@/lib/web/builtin-auth";
import { memberForRequest } from "@/lib/web/session";
import { TestBrowser } from "../support/cookie-jar";

const email = () => `pw-${randomUUID()}@example.test`;
const storedHash = async (id: string) =>
  (
    await asService((tx) =>
      tx.query<{ h: string }>("select encrypted_password as h from auth.users where id = $1", [id]),
    )
  )[0]?.h ?? "";

describe("passwords", () => {
  beforeAll(async () => {
    await getDb();
  });

  it("hashes with argon2id in PHC form and verifies it", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("wrong horse battery", hash)).toBe(false);
    expect(await verifyPassword("anything", null)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it("verifies GoTrue's bcrypt hashes and rehashes them (and scrypt ones) to argon2id at sign-in", async () => {
    const address = email();
    const member = await createMember({ email: address });
    await asService((tx) =>
      tx.query("update auth.users set encrypted_password = $2 where id = $1", [
        member.id,
        bcrypt.hashSync("long enough password", 10),
      ]),
    );
    expect((await signIn(address, "wrong password!!", "10.9.0.1")).ok).toBe(false);
    expect(await storedHash(member.id)).toMatch(/^\$2[aby]\$/);
    expect(await signIn(address, "long enough password", "10.9.0.1")).toEqual({ ok: true, memberId: member.id });
    expect(await storedHash(member.id)).toMatch(/^\$argon2id\$/);
    expect(await signIn(address, "long enough password", "10.9.0.1")).toEqual({ ok: true, memberId: member.id });
  });
});

describe("built-in sign-in, password change and the session list", () => {
  it("lists the member's browsers, ends one, and a password change signs out the others", async () => {
    const address = email();
    const laptop = new TestBrowser("Laptop");
    const phone = new TestBrowser("Phone");
    const signedUp = await builtinAuth.signUp(laptop.request(), address, "first password!");
    expect(signedUp.ok).toBe(true);
    expect((await builtinAuth.signIn(phone.request(), address, "first password!")).ok).toBe(true);
    const me = await memberForRequest(laptop.request());
    expect(me?.email).toBe(address);
    const sessions = await listSessions(me?.id ?? "");
    expect(sessions.map((s) => s.user_agent).sort()).toEqual(["Laptop", "Phone"]);

    const phoneSession = sessions.find((s) => s.user_agent === "Phone");
    const stranger = await createMember({ email: email() });
    expect(await endSessionById(stranger.id, phoneSession?.id ?? "")).toBe(false);
    expect(await endSessionById(me?.id ?? "", phoneSession?.id ?? "")).toBe(true);
    expect(await memberForRequest(phone.request())).toBeNull();

    const tablet = new TestBrowser("Tablet");
    await builtinAuth.signIn(tablet.request(), address, "first password!");
    const session = await builtinAuth.currentSession(laptop.request());
    if (!session) throw new Error("laptop signed out");
    expect(await builtinAuth.changePassword(laptop.request(), session, "not the password", "second password!")).toEqual(
      {
        ok: false,
        error: "The current password is not right.",
      },
    );
    expect(await builtinAuth.changePassword(laptop.request(), session, "first password!", "second password!")).toEqual({
      ok: true,
    });
    expect(await memberForRequest(tablet.request())).toBeNull();
    expect((await memberForRequest(laptop.request()))?.id).toBe(me?.id);
    expect((await signIn(address, "first password!", "10.9.0.2")).ok).toBe(false);
    expect((await signIn(address, "second password!", "10.9.0.2")).ok).toBe(true);

    await builtinAuth.signOut(laptop.request());
    expect(laptop.jar.size).toBe(0);
    expect(await memberForRequest(laptop.request())).toBeNull();
  });
});
