import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/cron/upkeep/route";
import { asService, getDb } from "@/lib/db";
import { cronUpkeep } from "@/lib/upkeep/cron-route";
import { UPKEEP_TASKS } from "@/lib/upkeep/tasks";
import { makeMember } from "../support/factories";

const task = (name: string) => {
  const found = UPKEEP_TASKS.find((t) => t.name === name);
  if (!found) throw new Error(`no task ${name}`);
  return found;
};
const count = async (sql: string, params: unknown[]) =>
  (await asService((tx) => tx.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)))[0]?.n;

describe("scheduled upkeep", () => {
  beforeAll(async () => {
    await getDb();
  });

  it("the cron route is closed without CRON_SECRET, refuses a wrong bearer, and runs every task with the right one", async () => {
    const request = (authorization?: string) =>
      new Request("http://localhost/api/cron/upkeep", { headers: authorization ? { authorization } : {} });
    expect((await cronUpkeep(request("Bearer x"), {})).status).toBe(503);
    const env = { CRON_SECRET: "a-cron-secret-of-some-length" };
    expect((await cronUpkeep(request(), env)).status).toBe(401);
    expect((await cronUpkeep(request("Bearer wrong"), env)).status).toBe(401);
    expect((await cronUpkeep(request("a-cron-secret-of-some-length"), env)).status).toBe(401);
    const ok = await cronUpkeep(request("Bearer a-cron-secret-of-some-length"), env);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(Object.keys(body.tasks).sort()).toEqual(UPKEEP_TASKS.map((t) => t.name).sort());
    for (const result of Object.values(body.tasks)) expect(result).toMatchObject({ purged: expect.any(Number) });

    // The Next route reads the process environment: here CRON_SECRET is unset.
    const saved = process.env.CRON_SECRET;
    delete process.env.CRON_SECRET;
    expect((await GET(request("Bearer anything"))).status).toBe(503);
    process.env.CRON_SECRET = "route-secret-route-secret";
    expect((await GET(request("Bearer route-secret-route-secret"))).status).toBe(200);
    if (saved === undefined) delete process.env.CRON_SECRET;
    else process.env.CRON_SECRET = saved;
  });

  it("purges only expired idempotency keys", async () => {
    const ada = await makeMember();
    await asService((tx) =>
      tx.query(
        `insert into app_private.idempotency_keys (member_id, key, fingerprint, state, lease, lease_expires_at, created_at, expires_at)
         values ($1, 'old', 'f', 'in_flight', gen_random_uuid(), now(), now() - interval '2 days', now() - interval '1 day'),
                ($1, 'new', 'f', 'in_flight', gen_random_uuid(), now(), now(), now() + interval '1 day')`,
        [ada.id],
      ),
    );
    expect(await asService((tx) => task("expired_idempotency_keys").run(tx))).toBeGreaterThanOrEqual(1);
    const left = await asService((tx) =>
      tx.query<{ key: string }>("select key from app_private.idempotency_keys where member_id = $1", [ada.id]),
    );
    expect(left).toEqual([{ key: "new" }]);
  });

  it("purges only expired sessions", async () => {
    const ada = await makeMember();
    await asService((tx) =>
      tx.query(
        `insert into app_private.sessions (member_id, secret_hash, expires_at, user_agent)
         values ($1, $2, now() - interval '1 second', 'old'), ($1, $3, now() + interval '1 day', 'live')`,
        [ada.id, randomBytes(32), randomBytes(32)],
      ),
    );
    expect(await asService((tx) => task("expired_sessions").run(tx))).toBeGreaterThanOrEqual(1);
    expect(await count("app_private.sessions where member_id = $1 and user_agent = 'live'", [ada.id])).toBe(1);
    expect(await count("app_private.sessions where member_id = $1 and user_agent = 'old'", [ada.id])).toBe(0);
  });

  it("purges pending uploads a day after their URL expired, and nothing else", async () => {
    const ada = await makeMember({ plan: "pro" });
    const key = () => `avatar/${randomUUID()}`;
    const [abandoned, recent, complete] = [key(), key(), key()];
    await asService((tx) =>
      tx.query(
        `insert into app_private.uploads (key, owner_id, purpose, content_type, size, status, expires_at, completed_at)
         values ($1, $4, 'avatar', 'image/png', 10, 'pending', now() - interval '25 hours', null),
                ($2, $4, 'avatar', 'image/png', 10, 'pending', now() - interval '1 hour', null),
                ($3, $4, 'avatar', 'image/png', 10, 'complete', now() - interval '25 hours', now() - interval '25 hours')`,
        [abandoned, recent, complete, ada.id],
      ),
    );
    expect(await asService((tx) => task("abandoned_uploads").run(tx))).toBeGreaterThanOrEqual(1);
    const left = await asService((tx) =>
      tx.query<{ key: string }>("select key from app_private.uploads where owner_id = $1 order by key", [ada.id]),
    );
    expect(left.map((row) => row.key).sort()).toEqual([recent, complete].sort());
  });
});
