import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearProviderCache } from "@/lib/catalog/providers/cache";
import { parseUrlInput } from "@/lib/catalog/url-clean";
import { classifyAddress } from "@/lib/net/address-class";
import { GuardedFetchError, guardedFetch } from "@/lib/net/guarded-fetch";
import { BlockedAddressError, useNameResolver } from "@/lib/net/ssrf-guard";
import { sendWebhook } from "@/lib/webhook-delivery/send";
import { api } from "../test/support/api";
import { makeMember, type TestMember } from "../test/support/factories";
import { loopbackOnly } from "../test/support/loopback-only";
import { connectAddresses, SSRF_TABLE, type SsrfRow, tableResolver } from "../test/support/ssrf-table";
import { record } from "./report";

// The SSRF address table (issue 30) through every consumer's own entry point: saving a webhook
// endpoint (REST), delivering to it, the resolver's page fetch (POST /resolve) and guardedFetch
// (OAuth client metadata). Names are answered by a DNS stand-in injected into the guard; no
// connection leaves loopback (loopback-only.ts fails it and records where it would have gone), so
// an address let through shows up as an attempt, to exactly the address the guard checked.

type Outcome = "refused" | "connected" | "saved" | "other";
type Consumer = "webhook_save" | "webhook_delivery" | "resolver" | "guarded_fetch";

let net: ReturnType<typeof loopbackOnly>;
let restoreResolver = () => {};
const saved = { ...process.env };
let members: TestMember[] = [];
let saves = 0;
// The resolver takes only URLs with a dotted host or localhost as input; an IPv6 literal reaches
// its page fetch as a redirect target, from this allow-listed loopback host.
const REDIRECTOR = "redirector.ssrf.test";
let redirector: http.Server;
let redirectorPort = 0;
let redirected = 0;

beforeAll(async () => {
  net = loopbackOnly();
  const answer = tableResolver();
  restoreResolver = useNameResolver(async (hostname) =>
    hostname === REDIRECTOR ? [{ address: "127.0.0.1", family: 4 }] : answer(hostname),
  );
  redirector = http.createServer((req, res) => {
    redirected++;
    res.writeHead(302, { location: decodeURIComponent((req.url ?? "/").replace(/^\/to\//, "")) }).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
  redirectorPort = (redirector.address() as AddressInfo).port;
  delete process.env.WEBHOOKS_ALLOW_HTTP;
  process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = REDIRECTOR;
  process.env.RESOLVER_PROVIDERS = "html";
  process.env.RESOLVER_MIN_INTERVAL_MS = "0";
  process.env.RESOLVER_TIMEOUT_MS = "2000";
  members = [await makeMember(), await makeMember()];
});
afterAll(async () => {
  await new Promise((resolve) => redirector.close(resolve));
  net.restore();
  restoreResolver();
  for (const name of [
    "WEBHOOKS_ALLOW_HTTP",
    "RESOLVER_ALLOW_PRIVATE_HOSTS",
    "RESOLVER_PROVIDERS",
    "RESOLVER_MIN_INTERVAL_MS",
    "RESOLVER_TIMEOUT_MS",
  ]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const canonical = (address: string) => classifyAddress(address).address ?? address;

/** "connected" only when the one attempt went to addresses the guard checked for this row. */
function attemptOutcome(row: SsrfRow): Outcome | undefined {
  const attempts = net.attempts.splice(0);
  if (!attempts.length) return undefined;
  const checked = new Set(connectAddresses(row).map(canonical));
  const exact = attempts.every((a) => a.addresses.every((address) => checked.has(canonical(address))));
  return exact ? "connected" : "other";
}

async function member(): Promise<TestMember> {
  // Ten endpoints per member at most (WEBHOOK_LIMITS): a new member every ten saves.
  if (saves > 0 && saves % 10 === 0) members.push(await makeMember());
  saves++;
  const latest = members.at(-1);
  if (!latest) throw new Error("no member");
  return latest;
}

const consumers: Record<Consumer, (row: SsrfRow, index: number) => Promise<Outcome>> = {
  async webhook_save(row) {
    const response = await api("POST", "/webhook-endpoints", {
      token: (await member()).token,
      body: { url: `https://${row.host}/hook`, events: ["*"] },
    });
    if (response.status === 201) return "saved";
    return response.status === 422 && response.body.errors?.[0]?.pointer === "/url" ? "refused" : "other";
  },
  async webhook_delivery(row) {
    const result = await sendWebhook(`https://${row.host}/hook`, "{}", {});
    return attemptOutcome(row) ?? (result.error?.startsWith("refused") ? "refused" : "other");
  },
  async resolver(row, index) {
    clearProviderCache();
    const target = `https://${row.host}/articles/ssrf-probe-${index}-${Date.now()}`;
    const direct = Boolean(parseUrlInput(target));
    const input = direct ? target : `http://${REDIRECTOR}:${redirectorPort}/to/${encodeURIComponent(target)}`;
    const before = redirected;
    const response = await api("POST", "/resolve", { token: members[0]?.token, body: { input } });
    if (!direct && redirected !== before + 1) return "other";
    const warnings: { provider: string; code: string }[] = response.body?.resolution?.warnings ?? [];
    return (
      attemptOutcome(row) ?? (warnings.some((w) => w.provider === "html" && w.code === "refused") ? "refused" : "other")
    );
  },
  async guarded_fetch(row) {
    const error = await guardedFetch(`https://${row.host}/client-metadata.json`).then(
      () => null,
      (e: unknown) => e,
    );
    const attempt = attemptOutcome(row);
    if (attempt) return error instanceof GuardedFetchError ? attempt : "other";
    return error instanceof BlockedAddressError ? "refused" : "other";
  },
};

function expected(consumer: Consumer, row: SsrfRow): Outcome {
  // Saving judges what it can without a lookup; names are judged at every request.
  if (consumer === "webhook_save") return row.public || row.resolvesTo ? "saved" : "refused";
  return row.public ? "connected" : "refused";
}

describe("SSRF address table", () => {
  it(`${SSRF_TABLE.length} addresses through webhooks, the resolver and guardedFetch`, async () => {
    const failures: string[] = [];
    const byConsumer: Record<string, { refused: number; let_through: number; failures: number }> = {};
    for (const [consumer, run] of Object.entries(consumers) as [Consumer, (typeof consumers)[Consumer]][]) {
      const tally = { refused: 0, let_through: 0, failures: 0 };
      byConsumer[consumer] = tally;
      for (const [index, row] of SSRF_TABLE.entries()) {
        net.attempts.splice(0);
        const outcome = await run(row, index);
        if (outcome === "refused") tally.refused++;
        else tally.let_through++;
        const want = expected(consumer, row);
        if (outcome !== want) {
          tally.failures++;
          failures.push(`${consumer}: ${row.host} (${row.why}): ${outcome}, expected ${want}`);
        }
      }
    }
    const addresses = SSRF_TABLE.length;
    record("ssrf", { addresses, consumers: byConsumer, failures: failures.length, examples: failures.slice(0, 20) });
    console.log(`ssrf: ${addresses} addresses, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(addresses).toBeGreaterThanOrEqual(40);
  });
});
