import { createHash, randomBytes, randomUUID, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/passwords";
import { migrate, readMigrations } from "@/lib/db/migrate";
import type { Database } from "@/lib/db/types";
import { freshDatabase } from "../support/fresh-database";

const MOVE = "20261123100100";

/** A hash as the service wrote them before argon2id (scrypt$N$r$p$salt$hash). */
function oldScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe("moving members into auth.users", () => {
  let db: Database;
  let drop: () => Promise<void>;
  const ada = randomUUID();
  const bob = randomUUID();
  const tokenHash = createHash("sha256").update("token").digest();
  const sessionHash = createHash("sha256").update("session").digest();
  let adaHash = "";

  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    const all = readMigrations();
    await migrate(
      db,
      all.filter((m) => m.version < MOVE && m.version < "20261123100000"),
    );
    adaHash = oldScryptHash("correct horse battery");
    await db.transaction(async (tx) => {
      await tx.query(
        "insert into app_private.members (id, email, password_hash, created_at) values ($1, $2, $3, now() - interval '3 days'), ($4, $5, null, now())",
        [ada, "Ada@Example.TEST", adaHash, bob, "bob@example.test"],
      );
      await tx.query("insert into public.profiles (id, handle) values ($1, 'ada_l'), ($2, 'bob_b')", [ada, bob]);
      await tx.query(
        `insert into app_private.access_tokens (member_id, name, token_hash, last4, scopes, expires_at)
         values ($1, 'cli', $2, 'abcd', '{collections:read}', now() + interval '30 days')`,
        [ada, tokenHash],
      );
      await tx.query(
        "insert into app_private.sessions (member_id, secret_hash, expires_at) values ($1, $2, now() + interval '30 days')",
        [ada, sessionHash],
      );
      await tx.query("insert into public.collections (owner_id, name, type) values ($1, 'Road trip', 'music')", [ada]);
      await tx.query(
        `insert into app_private.idempotency_keys (member_id, key, fingerprint, state, lease, lease_expires_at, created_at, expires_at)
         values ($1, 'k1', 'f', 'in_flight', gen_random_uuid(), now(), now(), now() + interval '1 day')`,
        [ada],
      );
    });
    await migrate(db, all);
  });

  afterAll(async () => {
    await drop?.();
  });

  it("keeps every member's id, email (lower-cased), password hash and creation time", async () => {
    const users = await db.query<{ id: string; email: string; encrypted_password: string | null; aged: boolean }>(
      `select id, email, encrypted_password, created_at < now() - interval '2 days' as aged
       from auth.users where id in ($1, $2) order by email`,
      [ada, bob],
    );
    expect(users).toEqual([
      { id: ada, email: "ada@example.test", encrypted_password: adaHash, aged: true },
      { id: bob, email: "bob@example.test", encrypted_password: null, aged: false },
    ]);
    expect(await verifyPassword("correct horse battery", users[0]?.encrypted_password ?? null)).toBe(true);
    expect(await db.query("select to_regclass('app_private.members') as t")).toEqual([{ t: null }]);
  });

  it("keeps tokens, sessions, profiles, rows and idempotency keys, now owned through auth.users", async () => {
    const counts = await db.query<Record<string, number>>(
      `select (select count(*)::int from app_private.access_tokens where member_id = $1 and token_hash = $2) as tokens,
              (select count(*)::int from app_private.sessions where member_id = $1 and secret_hash = $3) as sessions,
              (select count(*)::int from public.profiles where id in ($1, $4)) as profiles,
              (select count(*)::int from public.collections where owner_id = $1) as collections,
              (select count(*)::int from app_private.idempotency_keys where member_id = $1) as keys`,
      [ada, tokenHash, sessionHash, bob],
    );
    expect(counts).toEqual([{ tokens: 1, sessions: 1, profiles: 2, collections: 1, keys: 1 }]);
    const targets = await db.query<{ target: string }>(
      `select distinct c.confrelid::regclass::text as target from pg_constraint c
       where c.contype = 'f' and c.conrelid in ('app_private.access_tokens'::regclass, 'app_private.sessions'::regclass,
         'public.profiles'::regclass, 'app_private.idempotency_keys'::regclass)`,
    );
    expect(targets).toEqual([{ target: "auth.users" }]);
  });

  it("deleting the auth user removes everything the member owned", async () => {
    await db.query("delete from auth.users where id = $1", [ada]);
    const left = await db.query<{ n: number }>(
      `select ((select count(*) from app_private.access_tokens where member_id = $1)
             + (select count(*) from app_private.sessions where member_id = $1)
             + (select count(*) from public.profiles where id = $1)
             + (select count(*) from public.collections where owner_id = $1))::int as n`,
      [ada],
    );
    expect(left).toEqual([{ n: 0 }]);
  });

  it("gives a user inserted the way GoTrue does a profile at once", async () => {
    const [user] = await db.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password, raw_user_meta_data) values ('grace@example.test', null, '{"handle": "grace_h"}') returning id`,
    );
    const [profile] = await db.query<{ handle: string; plan: string }>(
      "select handle::text, plan from public.profiles where id = $1",
      [user?.id],
    );
    expect(profile).toEqual({ handle: "grace_h", plan: "free" });
    const [clash] = await db.query<{ id: string }>(
      `insert into auth.users (email, raw_user_meta_data) values ('grace@other.test', '{"handle": "grace_h"}') returning id`,
    );
    const [second] = await db.query<{ handle: string }>("select handle::text from public.profiles where id = $1", [
      clash?.id,
    ]);
    expect(second?.handle).toMatch(/^grace(_\d{5})?$/);
  });
});
