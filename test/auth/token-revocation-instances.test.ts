import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { hashToken } from "@/lib/auth/token-format";
import { operatorCli, sharedServerDatabase, startServeRest, stopServeRest } from "../support/serve-rest-process";

/**
 * Two server processes (scripts/serve-rest.ts, the real REST handler) on one Postgres, each with
 * its token cache warm; a third session revokes the token through the table, as the settings page
 * or the CLI would on any instance. The very next request on either server must answer 401.
 * Needs a Postgres server on both passes: on the PGlite pass it makes a scratch database.
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await stopServeRest();
});

const serve = async (dbUrl: string) =>
  (await startServeRest({ ...process.env, DATABASE_URL: dbUrl, REDIS_URL: "", TOKEN_CACHE_SECONDS: "600" })).url;

const list = async (base: string, token: string) => {
  const response = await fetch(`${base}/api/v1/collections`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
};

describe("token revocation across instances", () => {
  it("a token revoked anywhere gets 401 on the very next request on another instance", async () => {
    const dbUrl = await sharedServerDatabase("pds_revoke");
    const [first, second] = await Promise.all([serve(dbUrl), serve(dbUrl)]);
    const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    cleanups.push(() => sql.end({ timeout: 1 }));
    // Member and tokens through the operator CLI, in the servers' database.
    const cli = operatorCli({ ...process.env, DATABASE_URL: dbUrl });
    const email = `r-${randomUUID()}@example.test`;
    cli("member", "create", "--email", email, "--password", "correct horse battery staple");
    for (let round = 0; round < 3; round++) {
      const token = cli("token", "create", "--email", email, "--scopes", "collections:read");
      // Twice on each: the second answer comes from the instance's cache.
      for (const base of [first, second, first, second]) expect(await list(base, token)).toBe(200);
      await sql`update app_private.access_tokens set revoked_at = now() where token_hash = ${hashToken(token)}`;
      expect(await list(round % 2 ? first : second, token)).toBe(401);
      expect(await list(round % 2 ? second : first, token)).toBe(401);
    }
  }, 90_000);
});
