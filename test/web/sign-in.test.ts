import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { FREE_FAILURES } from "@/lib/auth/sessions-throttle";
import { BAD_CREDENTIALS, signIn, signUp } from "@/lib/web/accounts";

const email = () => `web-${randomUUID()}@example.test`;

describe("sign-up and sign-in", () => {
  // Opening and migrating the database counts against the hook timeout, not the first test's.
  beforeAll(async () => {
    await getDb();
  });

  it("signs up with a password and signs in with it", async () => {
    const address = email();
    const created = await signUp(address, "correct horse battery");
    expect(created.ok).toBe(true);
    const signedIn = await signIn(address.toUpperCase(), "correct horse battery", "10.0.0.1");
    expect(signedIn).toEqual({ ok: true, memberId: created.ok ? created.memberId : "" });
  });

  it("refuses a short password, a bad email and a second account for one email", async () => {
    expect(await signUp(email(), "short")).toMatchObject({ ok: false, error: expect.stringContaining("password") });
    expect(await signUp("not-an-email", "long enough password")).toMatchObject({ ok: false });
    const address = email();
    await signUp(address, "long enough password");
    expect(await signUp(address, "another long password")).toMatchObject({
      ok: false,
      error: expect.stringContaining("exists"),
    });
  });

  it("answers a wrong password and an unknown email with the same words", async () => {
    const address = email();
    await signUp(address, "long enough password");
    const wrong = await signIn(address, "wrong password!", "10.0.0.2");
    const unknown = await signIn(email(), "wrong password!", "10.0.0.2");
    expect(wrong).toEqual({ ok: false, error: BAD_CREDENTIALS });
    expect(unknown).toEqual(wrong);
  });

  it("slows down repeated failures per email and address, for members and strangers alike", async () => {
    const member = email();
    await signUp(member, "long enough password");
    for (const address of [member, email()]) {
      for (let i = 0; i < FREE_FAILURES; i++) {
        expect(await signIn(address, "wrong password!", "10.0.0.3")).toEqual({ ok: false, error: BAD_CREDENTIALS });
      }
      // Now even the right password is not checked until the pause is over.
      const paused = await signIn(address, "long enough password", "10.0.0.3");
      expect(paused).toMatchObject({
        ok: false,
        error: expect.stringMatching(/Too many failed attempts\. Try again in \d+ seconds/),
      });
      // Another address is not paused by these failures (the stranger still has no account).
      expect((await signIn(address, "long enough password", "10.0.0.4")).ok).toBe(address === member);
    }
  });
});
