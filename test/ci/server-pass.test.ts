import { describe, expect, it } from "vitest";
import { serverPass } from "../../scripts/test-server.ts";

// The server pass of `npm test` (Postgres + Redis) must fail in CI, never skip, when either is missing.
const server = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const redis = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

describe("the server pass of npm test", () => {
  it("is ready with the machine's Postgres and Redis", async () => {
    const pass = await serverPass({ CI: "1", TEST_DATABASE_URL: server, TEST_REDIS_URL: redis });
    expect(pass.kind).toBe("ready");
    if (pass.kind === "ready") await pass.drop();
  });

  it("fails in CI when Postgres or Redis cannot be reached, and is a loud skip only on a laptop", async () => {
    const noPostgres = await serverPass({
      CI: "1",
      TEST_DATABASE_URL: "postgres://postgres@127.0.0.1:1/postgres",
      TEST_REDIS_URL: redis,
    });
    expect(noPostgres.kind).toBe("failed");
    const noRedis = await serverPass({ CI: "1", TEST_DATABASE_URL: server, TEST_REDIS_URL: "redis://127.0.0.1:1" });
    expect(noRedis).toMatchObject({ kind: "failed", why: expect.stringContaining("Redis") });
    const laptop = await serverPass({ TEST_REDIS_URL: "redis://127.0.0.1:1" });
    expect(laptop.kind).toBe("skipped");
  });
});
