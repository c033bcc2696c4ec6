import { describe, expect, it } from "vitest";
import { authenticateToken, revokeToken } from "@/lib/auth/tokens";
import { asService } from "@/lib/db";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

/** Polls until the look-up answers as expected: a NOTIFY from another session arrives a moment later. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The look-up cache of this process: served from memory, dropped the moment the row changes. */
describe("token look-up cache", () => {
  it("refuses a token revoked here on the very next look-up and request", async () => {
    const member = await makeMember();
    expect((await authenticateToken(member.token))?.memberId).toBe(member.id);
    expect((await authenticateToken(member.token))?.memberId).toBe(member.id); // from the cache
    expect(await revokeToken(member.tokenId)).toBe(true);
    expect(await authenticateToken(member.token)).toBeNull();
    expect((await api("GET", "/collections", { token: member.token })).status).toBe(401);
  });

  it("answers 401 on the next request after a revoke by another session, cache or not", async () => {
    const member = await makeMember();
    expect((await api("GET", "/collections", { token: member.token })).status).toBe(200);
    // Another session (the CLI, another instance): this process learns of it by NOTIFY only.
    await asService((tx) =>
      tx.query("update app_private.access_tokens set revoked_at = now() where id = $1", [member.tokenId]),
    );
    const response = await api("GET", "/collections", { token: member.token });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("unauthorized");
  });

  it("drops a token whose expiry or scopes change, and one whose member is deleted", async () => {
    const member = await makeMember();
    expect(await authenticateToken(member.token)).not.toBeNull();
    await asService((tx) =>
      tx.query("update app_private.access_tokens set expires_at = now() - interval '1 second' where id = $1", [
        member.tokenId,
      ]),
    );
    expect(
      await eventually(
        () => authenticateToken(member.token),
        (caller) => caller === null,
      ),
    ).toBeNull();

    const other = await makeMember({ scopes: ["collections:read"] });
    expect([...((await authenticateToken(other.token))?.scopes ?? [])]).toEqual(["collections:read"]);
    await asService((tx) =>
      tx.query("update app_private.access_tokens set scopes = '{}' where id = $1", [other.tokenId]),
    );
    const narrowed = await eventually(
      () => authenticateToken(other.token),
      (caller) => caller?.scopes.size === 0,
    );
    expect([...(narrowed?.scopes ?? [])]).toEqual([]);
    await asService((tx) => tx.query("delete from auth.users where id = $1", [other.id]));
    expect(
      await eventually(
        () => authenticateToken(other.token),
        (caller) => caller === null,
      ),
    ).toBeNull();
  });
});
