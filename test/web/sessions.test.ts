import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createSession, endSession, findSession } from "@/lib/auth/sessions";
import { asMember, asService, getDb } from "@/lib/db";
import { makeMember } from "../support/factories";

describe("browser sessions", () => {
  beforeAll(async () => {
    await getDb();
  });

  it("stores only a SHA-256 of the secret, and the secret finds the member", async () => {
    const ada = await makeMember();
    const { secret, expiresAt } = await createSession(ada.id);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const rows = await asService((tx) =>
      tx.query<Record<string, unknown>>(
        "select *, encode(secret_hash, 'hex') as hash_hex from app_private.sessions where member_id = $1",
        [ada.id],
      ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.hash_hex).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(rows[0])).not.toContain(secret);
    expect(await findSession(secret)).toMatchObject({ memberId: ada.id });
  });

  it("refuses a malformed, unknown, expired or ended secret", async () => {
    const ada = await makeMember();
    expect(await findSession(undefined)).toBeNull();
    expect(await findSession("not a secret")).toBeNull();
    expect(await findSession("A".repeat(43))).toBeNull();

    const expired = await createSession(ada.id);
    await asService((tx) =>
      tx.query("update app_private.sessions set expires_at = now() - interval '1 second' where secret_hash = $1", [
        createHash("sha256").update(expired.secret).digest(),
      ]),
    );
    expect(await findSession(expired.secret)).toBeNull();

    const ended = await createSession(ada.id);
    expect(await findSession(ended.secret)).not.toBeNull();
    await endSession(ended.secret);
    expect(await findSession(ended.secret)).toBeNull();
  });

  it("is out of reach of a member's own database role", async () => {
    const ada = await makeMember();
    await createSession(ada.id);
    await expect(asMember(ada.id, (tx) => tx.query("select * from app_private.sessions"))).rejects.toMatchObject({
      code: "42501",
    });
  });
});
