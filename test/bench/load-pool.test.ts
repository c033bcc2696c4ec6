import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureApi, type Scenario } from "../../bench/load.ts";

/**
 * A pool row (the bench's deletes) sends each entry once across its warm-up and its measured run:
 * an entry sent twice is a row deleted twice, and its 404 was measured as a delete. A stub server
 * counts the paths it was sent; the bench's CPU count reads this process (no database).
 */
process.env.BENCH_LOAD = process.env.BENCH_LOAD ?? "autocannon";

const sent = new Map<string, number>();
const server = http.createServer((request, response) => {
  sent.set(request.url ?? "", (sent.get(request.url ?? "") ?? 0) + 1);
  // Slow enough that a run hands out a fraction of the pool.
  setTimeout(() => response.writeHead(204).end(), 5);
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a pool row", () => {
  it("starts each run past every entry the run before it handed out, so no entry is sent twice", async () => {
    const scenario: Scenario = {
      label: "delete",
      method: "DELETE",
      path: (i) => `/rows/${i}`,
      expect: 204,
      pool: { next: 0, size: 100_000 },
    };
    const cpu = { app: "self" as const, dbPids: async () => [] };
    const first = await measureApi(url, cpu, scenario, 1, 20);
    const afterFirst = scenario.pool?.next ?? 0;
    const second = await measureApi(url, cpu, scenario, 1, 20);
    await new Promise((resolve) => setTimeout(resolve, 200)); // requests still in flight land
    expect(first.requests).toBeGreaterThan(100);
    expect(second.requests).toBeGreaterThan(100);
    expect(afterFirst).toBeGreaterThanOrEqual(first.requests);
    expect([...sent.values()].filter((n) => n > 1)).toEqual([]);
    // Every path sent lies below the pool's next entry: nothing is handed out without being counted.
    const highest = Math.max(...[...sent.keys()].map((key) => Number(key.split("/").at(-1))));
    expect(highest).toBeLessThan(scenario.pool?.next ?? 0);
  });
});
