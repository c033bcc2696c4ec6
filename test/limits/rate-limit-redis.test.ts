import net from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GET as healthRoute } from "@/app/api/v1/health/route";
import { redisStore } from "@/lib/http/rate-limit-redis";
import type { RateLimitStore } from "@/lib/http/rate-limit-store";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { SPEC_LIMITS, useEnv } from "./test-setup";

// Runs in both passes against a real Redis; CI runs one at 127.0.0.1:6379, and an unreachable
// Redis fails these tests rather than skipping them.
const REDIS_URL = process.env.REDIS_URL || process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

const opened: RateLimitStore[] = [];
const health = async () => (await healthRoute(new Request("http://localhost/api/v1/health"))).json();
const open = (url: string) => {
  const store = redisStore(url);
  opened.push(store);
  return store;
};
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close?.()));
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

describe("Redis rate-limit store", () => {
  const setEnv = useEnv();

  it("shares one bucket between two clients (one Lua script per request)", async () => {
    const a = open(REDIS_URL);
    const b = open(REDIS_URL);
    expect(await a.status?.()).toBe("redis");
    expect(await b.status?.()).toBe("redis");
    const bucket = { key: `pds:rl:{test-${crypto.randomUUID()}}:token`, capacity: 30, refillPerSecond: 0.01 };
    const answers: boolean[] = [];
    for (let i = 0; i < 40; i++) answers.push((await (i % 2 ? a : b).take([bucket])).allowed);
    expect(answers.filter(Boolean)).toHaveLength(30);
    expect(answers.slice(30).every((allowed) => !allowed)).toBe(true);
  });

  it("fails open to memory buckets when Redis is unreachable, says so once, and still limits", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const store = open(`redis://127.0.0.1:${await closedPort()}`);
      const bucket = { key: "pds:rl:{down}:token", capacity: 2, refillPerSecond: 0.01 };
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await store.take([bucket])).allowed);
      expect(answers).toEqual([true, true, false]);
      expect(await store.status?.()).toBe("redis_unavailable");
      const lines = errors.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("[rate-limit]"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/unreachable .*fall back to this instance's memory/);
    } finally {
      errors.mockRestore();
    }
  });

  it("keeps the API answering, with limits, and reports redis_unavailable on the health check", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      setEnv({ ...SPEC_LIMITS, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
      const ada = await makeMember();
      const ok = await api("GET", "/collections", { token: ada.token });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit")).toBe('"token";r=29;t=1');
      expect(await health()).toMatchObject({ status: "ok", rate_limit_store: "redis_unavailable" });
      setEnv({ REDIS_URL });
      expect(await health()).toMatchObject({ status: "ok", rate_limit_store: "redis" });
    } finally {
      errors.mockRestore();
    }
  });
});
