import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import type { ProviderSettings } from "@/lib/catalog/providers/config";
import { ProviderError } from "@/lib/catalog/providers/errors";
import { deadlineSignal } from "@/lib/catalog/providers/budget";
import { getJson } from "@/lib/catalog/providers/http";
import { guardedLookup, isPublicAddress } from "@/lib/catalog/providers/ssrf-guard";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";

let server: FixtureServer;
const settings = (overrides: Partial<ProviderSettings> = {}): ProviderSettings => ({
  id: "wikipedia",
  baseUrl: server.url,
  timeoutMs: 1500,
  retries: 1,
  userAgent: "pds-tests/1 (+https://example.test/contact)",
  ...overrides,
});

beforeAll(async () => {
  server = await startFixtureServer({
    "GET /ok/1": { body: '{"n":1}' },
    "GET /ok/2": { body: '{"n":2}' },
    "GET /ok/3": { body: '{"n":3}' },
    "GET /ok/4": { body: '{"n":4}' },
    "GET /missing": { status: 404 },
    "GET /forbidden": { status: 403 },
    "GET /flaky": [{ status: 500 }, { status: 502 }, { body: '{"late":true}' }],
    "GET /slow": { body: "{}", delayMs: 5000 },
  });
});
afterAll(() => server.close());
beforeEach(() => {
  clearProviderCache();
  resetProviderBreaker();
});

describe("provider HTTP client", () => {
  it("sends the User-Agent and caches answers (404 included)", async () => {
    const before = server.requests.length;
    expect(await getJson(settings(), `${server.url}/ok/1`)).toEqual({ n: 1 });
    expect(await getJson(settings(), `${server.url}/ok/1`)).toEqual({ n: 1 });
    expect(await getJson(settings(), `${server.url}/missing`)).toBeNull();
    expect(await getJson(settings(), `${server.url}/missing`)).toBeNull();
    expect(server.requests.length - before).toBe(2);
    expect(server.userAgents.at(-1)).toBe("pds-tests/1 (+https://example.test/contact)");
  });

  it("spends the provider's request budget: waits for a token due before the deadline, else gives up at once", async () => {
    process.env.RESOLVER_NOMINATIM_BUDGET = "1/0.2";
    try {
      const polite = () => settings({ id: "nominatim", signal: deadlineSignal(1000) });
      const started = Date.now();
      await getJson(polite(), `${server.url}/ok/2`);
      await getJson(polite(), `${server.url}/ok/3`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      process.env.RESOLVER_NOMINATIM_BUDGET = "1/60";
      const before = server.requests.length;
      const waited = Date.now();
      const error = await getJson(polite(), `${server.url}/ok/4`).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "budget_exhausted", provider: "nominatim" });
      expect(Date.now() - waited).toBeLessThan(500);
      expect(server.requests.length).toBe(before);
    } finally {
      delete process.env.RESOLVER_NOMINATIM_BUDGET;
    }
  });

  it("does not retry a 4xx, and stops after the configured retries on 5xx", async () => {
    await expect(getJson(settings(), `${server.url}/forbidden`)).rejects.toMatchObject({ code: "http_error" });
    expect(server.requests.filter((r) => r === "GET /forbidden")).toHaveLength(1);
    const error = await getJson(settings({ retries: 1 }), `${server.url}/flaky`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(server.requests.filter((r) => r === "GET /flaky")).toHaveLength(2);
    expect(await getJson(settings({ retries: 2 }), `${server.url}/flaky`)).toEqual({ late: true });
  });

  it("reports an unreachable provider as a network error", async () => {
    await expect(getJson(settings({ retries: 0 }), "http://127.0.0.1:1/nothing")).rejects.toMatchObject({
      code: "network",
    });
  });

  it("stops waiting and retrying at the resolve's deadline", async () => {
    const deadline = AbortSignal.timeout(300);
    const started = performance.now();
    const error = await getJson(
      settings({ retries: 5, timeoutMs: 10_000, signal: deadline }),
      `${server.url}/slow`,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "timeout" });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests.filter((r) => r === "GET /slow")).toHaveLength(1);
  });

  it("does not count a 4xx against the provider's circuit", async () => {
    for (let i = 0; i < 5; i++)
      await expect(getJson(settings(), `${server.url}/forbidden`)).rejects.toMatchObject({ code: "http_error" });
    expect(await getJson(settings(), `${server.url}/ok/1`)).toEqual({ n: 1 });
  });

  it("does not retry a name that does not resolve, and opens the circuit at once", async () => {
    const error = await getJson(settings({ retries: 3 }), "http://nothing.pds-test.invalid/x").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "network", dns: true });
    // A URL asked before is answered from the resolver cache, circuit or not: this one never was.
    await expect(getJson(settings(), `${server.url}/ok/4`)).rejects.toMatchObject({ code: "circuit_open" });
  });
});

describe("SSRF guard", () => {
  it.each([
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd00::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["not-an-ip", false],
    ["93.184.216.34", true],
    ["8.8.8.8", true],
    ["172.32.0.1", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
  ])("%s public=%s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("refuses a name that resolves to loopback unless the host is allow-listed", async () => {
    const lookup = (host: string) =>
      new Promise<{ error: NodeJS.ErrnoException | null }>((resolve) =>
        guardedLookup(host, {}, (error) => resolve({ error })),
      );
    expect((await lookup("localhost")).error?.code).toBe("EBLOCKED");
    const saved = process.env.RESOLVER_ALLOW_PRIVATE_HOSTS;
    process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = "localhost";
    try {
      expect((await lookup("localhost")).error).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.RESOLVER_ALLOW_PRIVATE_HOSTS;
      else process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = saved;
    }
  });
});
