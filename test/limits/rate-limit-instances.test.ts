import { afterAll, describe, expect, it } from "vitest";
import { makeMember } from "../support/factories";
import { cliMemberToken, sharedServerDatabase, startServeRest, stopServeRest } from "../support/serve-rest-process";

/**
 * Two separate server processes (scripts/serve-rest.ts: the real REST handler on node:http) share
 * one Redis and one Postgres, and together let exactly one bucket's worth of requests through.
 * Needs Redis and a Postgres server in both passes: on the PGlite pass it makes a scratch database.
 */
const REDIS_URL = process.env.REDIS_URL || process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
afterAll(stopServeRest);

/** A token in the servers' database: in-process on the server pass, else through the operator CLI. */
async function tokenIn(dbUrl: string): Promise<string> {
  if (process.env.DATABASE_URL) return (await makeMember()).token;
  return cliMemberToken({ ...process.env, DATABASE_URL: dbUrl }, "collections:read");
}

async function serve(dbUrl: string): Promise<string> {
  const server = await startServeRest({
    ...process.env,
    DATABASE_URL: dbUrl,
    REDIS_URL,
    // The spec's bucket of 30, refilling too slowly to matter during the test.
    RATE_LIMIT_CAPACITY: "",
    RATE_LIMIT_REFILL_PER_SECOND: "0.01",
  });
  return server.url;
}

describe("rate limits across instances", () => {
  it("two server processes sharing one Redis enforce one bucket of 30 together", async () => {
    const dbUrl = await sharedServerDatabase("pds_limits");
    const token = await tokenIn(dbUrl);
    const [first, second] = await Promise.all([serve(dbUrl), serve(dbUrl)]);
    expect(first).not.toBe(second);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const base = i % 2 ? first : second;
      const response = await fetch(`${base}/api/v1/collections`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
  }, 90_000);
});
