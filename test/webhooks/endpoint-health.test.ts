import { afterAll, afterEach, describe, expect, it } from "vitest";
import { endpointHealth, FAILING_AFTER_ATTEMPTS } from "@/lib/web/webhook-status";
import { runWebhookDeliveries, webhookClock } from "@/lib/webhook-delivery/worker";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { startReceiver } from "../support/webhook-receiver";

process.env.WEBHOOKS_ALLOW_HTTP = "1";

const realNow = webhookClock.now;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
const mine: string[] = [];
afterEach(() => {
  webhookClock.now = realNow;
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function drain() {
  for (let i = 0; i < 50; i++) if ((await runWebhookDeliveries({ endpoints: mine })) === 0) return;
}

/** What the settings page reads (the endpoint and its newest deliveries), through the API as the member. */
async function health(member: TestMember, id: string) {
  const endpoint = await api("GET", `/webhook-endpoints/${id}`, { token: member.token });
  const log = await api("GET", `/webhook-endpoints/${id}/deliveries?limit=20`, { token: member.token });
  return endpointHealth(endpoint.body, log.body.data);
}

describe("an endpoint's health on the settings page", () => {
  it(`is not Failing after one failed test ping, only after ${FAILING_AFTER_ATTEMPTS} failed attempts in a row`, async () => {
    const ada = await makeMember();
    let answer = 503;
    const r = await startReceiver(() => answer);
    receivers.push(r);
    const made = await api("POST", "/webhook-endpoints", { token: ada.token, body: { url: r.url, events: ["*"] } });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    mine.push(id);
    let now = Date.now() + 1000;
    webhookClock.now = () => new Date(now);

    await api("POST", `/webhook-endpoints/${id}/ping`, { token: ada.token });
    await drain();
    expect(r.received).toHaveLength(1);
    // The API still says since when deliveries fail (the 5-day disable counts from there)…
    const read = await api("GET", `/webhook-endpoints/${id}`, { token: ada.token });
    expect(read.body.failing_since).toEqual(expect.any(String));
    // …but one failed ping is a retry to come, not a failing endpoint.
    expect(await health(ada, id)).toEqual({ state: "retrying", failedAttempts: 1 });

    // Two more failed attempts (the ping's retry, then a second ping): three in a row.
    now += 5_000;
    await drain();
    await api("POST", `/webhook-endpoints/${id}/ping`, { token: ada.token });
    await drain();
    expect(r.received).toHaveLength(3);
    expect(await health(ada, id)).toEqual({ state: "failing", since: read.body.failing_since, failedAttempts: 3 });

    // One success ends it.
    answer = 204;
    await api("POST", `/webhook-endpoints/${id}/ping`, { token: ada.token });
    await drain();
    expect(await health(ada, id)).toEqual({ state: "ok" });
  });

  it("counts failed attempts back to the latest delivered one, and says nothing of a disabled endpoint", () => {
    const failed = (attempts: number) => ({ status: "pending", attempts, last_error: "HTTP 500" });
    const delivered = { status: "delivered", attempts: 1, last_error: null };
    const since = "2026-01-01T00:00:00Z";
    expect(
      endpointHealth({ enabled: true, failing_since: since }, [failed(1), failed(1), delivered, failed(5)]),
    ).toEqual({
      state: "retrying",
      failedAttempts: 2,
    });
    expect(endpointHealth({ enabled: true, failing_since: since }, [failed(3)])).toMatchObject({ state: "failing" });
    // Not tried yet: counts nothing.
    expect(
      endpointHealth({ enabled: true, failing_since: since }, [
        { status: "pending", attempts: 0, last_error: null },
        failed(2),
      ]),
    ).toMatchObject({ state: "retrying", failedAttempts: 2 });
    expect(endpointHealth({ enabled: false, failing_since: since }, [failed(9)])).toEqual({ state: "disabled" });
    expect(endpointHealth({ enabled: true, failing_since: null }, [])).toEqual({ state: "ok" });
  });
});
