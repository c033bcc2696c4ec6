import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { CircuitBreaker, resetProviderBreaker } from "@/lib/catalog/providers/breaker";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { useEnv } from "../limits/test-setup";

/** A provider that is down (every request answers `status`) or hangs (accepts and never answers). */
async function upstream(behaviour: { status: number } | "hang") {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (behaviour === "hang") return;
    res.writeHead(behaviour.status, { "content-type": "application/json" }).end('{"error":"down"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, requests, close };
}

type Upstream = Awaited<ReturnType<typeof upstream>>;
let down: Upstream;
let hanging: Upstream;
const resolve = (member: TestMember, input: string) =>
  api("POST", "/resolve", { token: member.token, body: { input } });
const fresh = () => `Outage${Math.random().toString(36).slice(2, 12)}`.padEnd(22, "0").slice(0, 22);
const DEADLINE = 600;

/** An ISBN-13 no seed holds, with a valid check digit. */
function freshIsbn(): string {
  const body = `979${Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join("")}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** Every default provider at `base` (a fixture server, or a name that does not resolve). */
const everyProviderAt = (base: (id: string) => string) => ({
  RESOLVER_PROVIDERS: undefined,
  RESOLVER_CONTACT: "tests@example.test",
  RESOLVER_ODESLI_URL: base("odesli"),
  RESOLVER_ITUNES_URL: base("itunes"),
  RESOLVER_MUSICBRAINZ_URL: base("musicbrainz"),
  RESOLVER_COVERARTARCHIVE_URL: base("coverartarchive"),
  RESOLVER_OPENLIBRARY_URL: base("openlibrary"),
  RESOLVER_WIKIPEDIA_URL: `${base("wikipedia")}/{lang}`,
  RESOLVER_NOMINATIM_URL: base("nominatim"),
  RESOLVER_DEADLINE_MS: String(DEADLINE),
  // Longer than the deadline: only the resolve's deadline can end a hanging attempt.
  RESOLVER_TIMEOUT_MS: "10000",
  RESOLVER_RETRIES: "2",
  RESOLVER_MIN_INTERVAL_MS: "0",
  RESOLVER_BREAKER_FAILURES: "3",
  RESOLVER_BREAKER_COOLDOWN_MS: "60000",
});

beforeAll(async () => {
  await getDb();
  down = await upstream({ status: 503 });
  hanging = await upstream("hang");
});
afterAll(async () => {
  // Files share a worker: leave no circuit open for the next file.
  resetProviderBreaker();
  await down.close();
  await hanging.close();
});
beforeEach(() => {
  clearProviderCache();
  resetProviderBreaker();
});

describe("resolve when providers are slow or gone", () => {
  const setEnv = useEnv();
  it("abandons a hanging provider at the resolve's deadline and answers from the catalog", async () => {
    setEnv(everyProviderAt((id) => `${hanging.url}/${id}`));
    const ada = await makeMember();
    // The first request of a worker loads routes and connects stores: not what is measured here.
    expect((await resolve(ada, "tt0133093")).status).toBe(200);
    const started = performance.now();
    const response = await resolve(ada, `https://open.spotify.com/track/${fresh()}`);
    const elapsed = performance.now() - started;
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      partial: true,
      title: null,
      resolution: { matched_by: "url_parser", offline: false },
    });
    expect(response.body.resolution.warnings).toContainEqual(
      expect.objectContaining({ provider: "odesli", code: "timeout" }),
    );
    expect(hanging.requests.length).toBeGreaterThan(0);
    // Abandoned at the deadline, not after the 10 s attempt timeout (and not after retries).
    expect(elapsed).toBeGreaterThanOrEqual(DEADLINE - 50);
    expect(elapsed).toBeLessThan(DEADLINE + 1500);
  });

  it("answers at once when provider names do not resolve (no network), and opens their circuits", async () => {
    // A long deadline: answering well inside it shows DNS failures are neither waited on nor retried.
    setEnv({ ...everyProviderAt((id) => `http://${id}.pds-test.invalid`), RESOLVER_DEADLINE_MS: "5000" });
    const ada = await makeMember();
    for (const input of [
      `https://open.spotify.com/track/${fresh()}`,
      freshIsbn(),
      `https://news.pds-test.invalid/${fresh()}/a-story`,
    ]) {
      const started = performance.now();
      const response = await resolve(ada, input);
      expect(response.status, `${input}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(performance.now() - started, input).toBeLessThan(2500);
      expect(response.body.resolution.warnings.length, input).toBeGreaterThan(0);
    }
    // One DNS failure is enough: the next resolve does not even try (no retry, no wait).
    const next = await resolve(ada, `https://open.spotify.com/track/${fresh()}`);
    expect(next.body.resolution.warnings).toContainEqual(
      expect.objectContaining({ provider: "odesli", code: "circuit_open" }),
    );
    const phrase = await resolve(ada, "qxzvw jjkkq plorf");
    expect(phrase.status).toBeLessThan(500);
  });

  it("opens a provider's circuit after repeated 503s and lets one call through after the cool-down", async () => {
    let now = 1_000_000;
    resetProviderBreaker(() => now);
    setEnv({ ...everyProviderAt((id) => `${down.url}/${id}`), RESOLVER_PROVIDERS: "odesli", RESOLVER_RETRIES: "0" });
    const ada = await makeMember();
    const before = down.requests.length;
    for (let i = 0; i < 3; i++) {
      const response = await resolve(ada, `https://open.spotify.com/track/${fresh()}`);
      expect(response.status).toBe(200);
      expect(response.body.resolution.warnings).toContainEqual(
        expect.objectContaining({ provider: "odesli", code: "rate_limited" }),
      );
    }
    expect(down.requests.length - before).toBe(3);
    const open = await resolve(ada, `https://open.spotify.com/track/${fresh()}`);
    expect(open.status).toBe(200);
    expect(open.body.resolution.warnings).toContainEqual(
      expect.objectContaining({ provider: "odesli", code: "circuit_open" }),
    );
    expect(down.requests.length - before).toBe(3);
    now += 60_001;
    const probe = await resolve(ada, `https://open.spotify.com/track/${fresh()}`);
    expect(probe.body.resolution.warnings).toContainEqual(
      expect.objectContaining({ provider: "odesli", code: "rate_limited" }),
    );
    expect(down.requests.length - before).toBe(4);
    // The probe failed: open again at once.
    const reopened = await resolve(ada, `https://open.spotify.com/track/${fresh()}`);
    expect(reopened.body.resolution.warnings).toContainEqual(expect.objectContaining({ code: "circuit_open" }));
    expect(down.requests.length - before).toBe(4);
  });
});

describe("circuit breaker", () => {
  const setEnv = useEnv();
  it("opens after N failures in a row, closes after the cool-down and a success", () => {
    let now = 0;
    setEnv({ RESOLVER_BREAKER_FAILURES: "2", RESOLVER_BREAKER_COOLDOWN_MS: "1000" });
    const breaker = new CircuitBreaker(() => now);
    breaker.failed("a");
    expect(breaker.allows("a")).toBe(true);
    breaker.succeeded("a");
    breaker.failed("a");
    expect(breaker.allows("a")).toBe(true);
    breaker.failed("a");
    expect(breaker.allows("a")).toBe(false);
    expect(breaker.allows("b")).toBe(true);
    now = 999;
    expect(breaker.allows("a")).toBe(false);
    now = 1000;
    expect(breaker.allows("a")).toBe(true);
    breaker.succeeded("a");
    breaker.failed("a");
    expect(breaker.allows("a")).toBe(true);
    breaker.failed("b", { immediately: true });
    expect(breaker.allows("b")).toBe(false);
  });
});
