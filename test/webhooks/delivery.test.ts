import { afterEach, describe, expect, it } from "vitest";
import { eventKindByType, eventPayloadSchema, eventReferenceData } from "@/registry/events";
import { asMember, asService } from "@/lib/db";
import { eventBody } from "@/lib/domain/webhooks/payload";
import { UPKEEP_TASKS } from "@/lib/upkeep/tasks";
import { runUpkeep } from "@/lib/upkeep/run";
import { runWebhookDeliveries, webhookClock } from "@/lib/webhook-delivery/worker";
import { revokeGrant } from "@/lib/auth/oauth/grants";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember } from "../support/factories";
import { approveAndExchange, registerClient } from "../support/oauth-grants";
import { verifyServiceSignature, verifyStandard } from "../support/webhook-receiver";
import { webhookScope } from "../support/webhook-scope";

process.env.WEBHOOKS_ALLOW_HTTP = "1";

const realNow = webhookClock.now;
const { mine, receiver, endpointFor, drain } = webhookScope();

function nth<T>(list: readonly T[], index: number): T {
  const one = list[index];
  if (one === undefined) throw new Error(`nothing at ${index}`);
  return one;
}

afterEach(() => {
  webhookClock.now = realNow;
});

describe("webhook endpoints", () => {
  it("shows the secret once, refuses plain http without WEBHOOKS_ALLOW_HTTP, and nulls the secret in replays", async () => {
    const ada = await makeMember();
    delete process.env.WEBHOOKS_ALLOW_HTTP;
    const refused = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: "http://127.0.0.1:9/hook", events: ["*"] },
    });
    expect(refused.status).toBe(422);
    for (const url of ["https://10.0.0.7/hook", "https://169.254.169.254/latest", "https://localhost/hook"]) {
      const privateUrl = await api("POST", "/webhook-endpoints", { token: ada.token, body: { url, events: ["*"] } });
      expect(privateUrl.status, url).toBe(422);
      expect(privateUrl.body.errors[0].pointer).toBe("/url");
    }
    process.env.WEBHOOKS_ALLOW_HTTP = "1";
    const headers = { "idempotency-key": "create-hook-1" };
    const body = { url: "https://example.com/hook", events: ["item.created"] };
    const created = await api("POST", "/webhook-endpoints", { token: ada.token, body, headers });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const replay = await api("POST", "/webhook-endpoints", { token: ada.token, body, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.secret).toBeNull();
    const read = await api("GET", `/webhook-endpoints/${created.body.id}`, { token: ada.token });
    expect(read.body.secret).toBeNull();
    const unknown = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: "https://example.com/hook", events: ["item.exploded"] },
    });
    expect(unknown.status).toBe(422);
  });

  it("allows at most 10 endpoints per member", async () => {
    const ada = await makeMember();
    for (let i = 0; i < 10; i++) await endpointFor(ada, "https://example.com/hook");
    const eleventh = await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: "https://example.com/hook", events: ["*"] },
    });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.reason.message).toMatch(/at most 10/);
  });

  it("keeps endpoints and deliveries private: another member gets 404 and an empty list", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const r = await receiver();
    const endpoint = await endpointFor(ada, r.url);
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    expect((await api("GET", `/webhook-endpoints/${endpoint.id}`, { token: bob.token })).status).toBe(404);
    expect((await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries`, { token: bob.token })).status).toBe(404);
    expect((await api("GET", "/webhook-endpoints", { token: bob.token })).body.data).toEqual([]);
    const deliveries = await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries`, { token: ada.token });
    // The delivery log pages like every list: limit is plain decimal digits, 1–200.
    for (const limit of ["0x10", "1e2", "0", "201"]) {
      const refused = await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries?limit=${limit}`, {
        token: ada.token,
      });
      expect(refused.status, limit).toBe(422);
    }
    expect(
      (await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries?limit=1`, { token: ada.token })).status,
    ).toBe(200);
    const [delivery] = deliveries.body.data;
    expect(delivery.event_type).toBe("webhook_endpoint.ping");
    const retry = `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`;
    expect((await api("POST", retry, { token: bob.token })).status).toBe(404);
    expect((await api("DELETE", `/webhook-endpoints/${endpoint.id}`, { token: bob.token })).status).toBe(404);
    const rows = await asMember(bob.id, (tx) =>
      tx.query("select 1 from public.webhook_deliveries where endpoint_id = $1", [endpoint.id]),
    );
    expect(rows).toEqual([]);
  });
});

describe("webhook delivery", () => {
  it("delivers a signed item.created that verifies with standardwebhooks and a plain HMAC check", async () => {
    const ada = await makeMember();
    const r = await receiver();
    const endpoint = await endpointFor(ada, r.url, ["item.created"]);
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "c", type: "music" } });
    const item = await api("POST", "/items", {
      token: ada.token,
      body: { collection_id: collection.body.id, song_id: await makeCatalogEntry(), title: "Song" },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    await drain();
    const got = nth(await r.waitFor(1), 0);
    expect(r.received).toHaveLength(1);
    expect(verifyStandard(endpoint.secret, got)).toEqual(got.json);
    expect(verifyServiceSignature(endpoint.secret, got)).toBe(true);
    expect(verifyServiceSignature(`whsec_${Buffer.alloc(32).toString("base64")}`, got)).toBe(false);
    expect(got.json.type).toBe("item.created");
    expect(got.headers["webhook-id"]).toBe(got.json.id);
    expect(got.json.data).toEqual(item.body);
  });

  it("sends nothing for a rolled-back write", async () => {
    const ada = await makeMember();
    const r = await receiver();
    await endpointFor(ada, r.url);
    await expect(
      asMember(ada.id, async (tx) => {
        await tx.query("insert into public.collections (name, type) values ('x', 'music')");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const rows = await asService((tx) =>
      tx.query("select 1 from public.webhook_deliveries where owner_id = $1", [ada.id]),
    );
    expect(rows).toEqual([]);
    await drain();
    expect(r.received).toHaveLength(0);
  });

  it("retries on the schedule: fails 3 times, then is delivered once", async () => {
    const ada = await makeMember();
    let calls = 0;
    const r = await receiver(() => (++calls <= 3 ? 500 : 204));
    const endpoint = await endpointFor(ada, r.url, ["collection.created"]);
    await api("POST", "/collections", { token: ada.token, body: { name: "c", type: "music" } });
    // Frozen after the commit, so the first attempt is due at once.
    let now = Date.now() + 1000;
    webhookClock.now = () => new Date(now);
    const waits = [5, 300, 1800];
    await drain();
    const failing = await api("GET", `/webhook-endpoints/${endpoint.id}`, { token: ada.token });
    expect(failing.body).toMatchObject({ enabled: true, failing_since: expect.any(String) });
    for (const seconds of waits) {
      const [row] = await asService((tx) =>
        tx.query<{ status: string; next: string }>(
          "select status, next_attempt_at::text as next from public.webhook_deliveries where endpoint_id = $1",
          [endpoint.id],
        ),
      );
      expect(row?.status).toBe("pending");
      expect(new Date(String(row?.next)).getTime() - now).toBe(seconds * 1000);
      await drain();
      expect(r.received).toHaveLength(waits.indexOf(seconds) + 1);
      now += seconds * 1000;
      await drain();
    }
    expect(r.received).toHaveLength(4);
    const log = await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries`, { token: ada.token });
    expect(log.body.data).toMatchObject([
      { status: "delivered", attempts: 4, last_status_code: 204, next_attempt_at: null },
    ]);
    expect(new Set(r.received.map((one) => one.json.id)).size).toBe(1);
    // The success ends the endpoint's failing streak.
    const healed = await api("GET", `/webhook-endpoints/${endpoint.id}`, { token: ada.token });
    expect(healed.body).toMatchObject({ enabled: true, failing_since: null });
  });

  it("disables an endpoint that has failed for 5 days and says why", async () => {
    const ada = await makeMember();
    const r = await receiver(() => 503);
    const endpoint = await endpointFor(ada, r.url);
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    let now = Date.now() + 1000;
    webhookClock.now = () => new Date(now);
    await drain();
    now += 5 * 86_400_000;
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    await drain();
    const read = await api("GET", `/webhook-endpoints/${endpoint.id}`, { token: ada.token });
    expect(read.body.enabled).toBe(false);
    expect(read.body.disabled_reason).toMatch(/5 days/);
    const again = await api("PATCH", `/webhook-endpoints/${endpoint.id}`, {
      token: ada.token,
      body: { enabled: true },
    });
    expect(again.body).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });

  it("signs with the old and the new secret for 24 h after a rotation", async () => {
    const ada = await makeMember();
    const r = await receiver();
    const endpoint = await endpointFor(ada, r.url);
    const rotated = await api("POST", `/webhook-endpoints/${endpoint.id}/rotate-secret`, { token: ada.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    await drain();
    const got = nth(await r.waitFor(1), 0);
    expect(verifyStandard(endpoint.secret, got)).toBeTruthy();
    expect(verifyStandard(rotated.body.secret, got)).toBeTruthy();
    expect(verifyServiceSignature(endpoint.secret, got)).toBe(true);
    const later = Date.now() + 25 * 3600_000;
    webhookClock.now = () => new Date(later);
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    await drain();
    const second = nth(await r.waitFor(2), 1);
    expect(verifyServiceSignature(endpoint.secret, second)).toBe(false);
    expect(verifyServiceSignature(rotated.body.secret, second)).toBe(true);
  });

  it("refuses a private address at delivery time", async () => {
    const ada = await makeMember();
    const endpoint = await endpointFor(ada, "https://127.0.0.1:1/hook");
    delete process.env.WEBHOOKS_ALLOW_HTTP;
    try {
      await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
      await runWebhookDeliveries({ endpoints: mine });
    } finally {
      process.env.WEBHOOKS_ALLOW_HTTP = "1";
    }
    const log = await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries`, { token: ada.token });
    expect(log.body.data[0]).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(log.body.data[0].last_error).toMatch(/refused/);
  });
});

describe("store events on cascades and purge", () => {
  it("lets a member with endpoints be deleted; the other side still learns its follow ended", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await endpointFor(ada, "https://example.com/hook");
    const bobs = await endpointFor(bob, "https://example.com/hook", ["follow.deleted"]);
    await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } });
    await asService((tx) => tx.query("delete from auth.users where id = $1", [ada.id]));
    const rows = await asService((tx) =>
      tx.query<{ event_type: string }>("select event_type from public.webhook_deliveries where endpoint_id = $1", [
        bobs.id,
      ]),
    );
    expect(rows.map((row) => row.event_type)).toEqual(["follow.deleted"]);
  });

  // This endpoint's deliveries are made 31 days old rather than the clock moved on: other files share
  // the database on the server pass, and their (young) deliveries must stay. Runs in both passes.
  it("purges finished deliveries after 30 days, keeps pending ones", async () => {
    const ada = await makeMember();
    const r = await receiver();
    const endpoint = await endpointFor(ada, r.url);
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    await drain();
    const [done] = await asService((tx) =>
      tx.query<{ event_id: string }>("select event_id from public.webhook_deliveries where endpoint_id = $1", [
        endpoint.id,
      ]),
    );
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    await asService((tx) =>
      tx.query(
        "update public.webhook_deliveries set created_at = created_at - interval '31 days' where endpoint_id = $1",
        [endpoint.id],
      ),
    );
    await runUpkeep(UPKEEP_TASKS.filter((task) => task.name === "webhook_deliveries"));
    const rows = await asService((tx) =>
      tx.query<{ status: string }>("select status from public.webhook_deliveries where endpoint_id = $1", [
        endpoint.id,
      ]),
    );
    expect(rows.map((row) => row.status)).toEqual(["pending"]);
    const events = await asService((tx) =>
      tx.query("select 1 from app_private.webhook_events where id = $1", [done?.event_id]),
    );
    expect(events).toEqual([]);
  });
});

describe("delivery limits", () => {
  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    const ada = await makeMember();
    const r = await receiver(() => 302);
    const endpoint = await endpointFor(ada, r.url);
    await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
    await runWebhookDeliveries({ endpoints: mine });
    const log = await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries`, { token: ada.token });
    expect(log.body.data[0]).toMatchObject({ status: "pending", attempts: 1, last_status_code: 302 });
    expect(r.received).toHaveLength(1);
  });

  it("sends a record over 256 KB as its address", () => {
    const row = { id: "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b", title: "x".repeat(300 * 1024) };
    const body = JSON.parse(
      eventBody({
        id: "0b7e5a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c",
        type: "todo.created",
        record_id: row.id,
        data: row,
        created_at: "2026-11-23T10:00:00+00:00",
      }),
    );
    expect(body.data).toEqual({
      id: row.id,
      url: expect.stringMatching(/\/api\/v1\/todos\/6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b$/),
    });
    expect(eventPayloadSchema("todo.created", eventReferenceData).safeParse(body).success).toBe(true);
  });

  it("stops reading a large answer at 64 KB and still counts the 2xx", async () => {
    const ada = await makeMember();
    const big = (await import("node:http")).createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("y".repeat(5 * 1024 * 1024));
    });
    await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
    try {
      const port = (big.address() as { port: number }).port;
      const endpoint = await endpointFor(ada, `http://127.0.0.1:${port}/hook`);
      await api("POST", `/webhook-endpoints/${endpoint.id}/ping`, { token: ada.token });
      await runWebhookDeliveries({ endpoints: mine });
      const log = await api("GET", `/webhook-endpoints/${endpoint.id}/deliveries`, { token: ada.token });
      expect(log.body.data[0]).toMatchObject({ status: "delivered", last_status_code: 200 });
    } finally {
      big.closeAllConnections();
      big.close();
    }
  });
});

describe("every declared event", () => {
  it("is produced by a real API call and arrives as documented", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const r = await receiver();
    await endpointFor(ada, r.url);
    const rb = await receiver();
    await endpointFor(bob, rb.url, ["message.created", "follow.created", "follow.deleted"]);
    const call = async (method: string, path: string, body?: unknown, token = ada.token) => {
      const response = await api(method, path, { token, body });
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      return response.body;
    };
    const collection = await call("POST", "/collections", { name: "c", type: "music" });
    await call("PATCH", `/collections/${collection.id}`, { name: "d" });
    const item = await call("POST", "/items", { collection_id: collection.id, song_id: await makeCatalogEntry() });
    await call("PATCH", `/items/${item.id}`, { rating: 4 });
    await call("DELETE", `/items/${item.id}`);
    await call("DELETE", `/collections/${collection.id}`);
    const todo = await call("POST", "/todos", { title: "t" });
    await call("PATCH", `/todos/${todo.id}`, { title: "u" });
    await call("DELETE", `/todos/${todo.id}`);
    const goal = await call("POST", "/goals", { title: "g", target_value: 10 });
    await call("PATCH", `/goals/${goal.id}`, { current_value: 2 });
    await call("DELETE", `/goals/${goal.id}`);
    const streak = await call("POST", "/streaks", { name: "s" });
    const renamed = await call("PATCH", `/streaks/${streak.id}`, { name: "t" });
    await call("POST", `/streaks/${streak.id}/check-in`, {});
    await call("DELETE", `/streaks/${streak.id}`);
    await call("POST", "/messages", { recipient_id: bob.id, body: "hi" });
    const follow = await call("POST", "/follows", { followee_id: bob.id });
    await call("DELETE", `/follows/${follow.id}`);
    const channel = await call("POST", "/channels", { handle: `c_${ada.id.slice(0, 8)}`, title: "C" });
    await call("PATCH", `/channels/${channel.id}`, { title: "D" });
    await call("PATCH", "/collection-types", { film: false });
    await call("PATCH", "/profile", { display_name: "Ada" });
    // A connected app: the member approves on the consent page, then revokes it under Connected apps.
    const grant = await approveAndExchange(ada.id, await registerClient(), ["collections:read"]);
    expect(await revokeGrant(grant.grantId, ada.id)).toBe(true);
    await drain();
    const types = new Set(r.received.map((one) => one.json.type));
    const declared = [...eventKindByType.keys()];
    expect([...types].sort()).toEqual(expect.arrayContaining(declared.sort()));
    for (const one of [...r.received, ...rb.received]) {
      const kind = eventKindByType.get(one.json.type);
      expect(kind, one.json.type).toBeDefined();
      const parsed = eventPayloadSchema(one.json.type, (kind?.data as any).strict())
        .strict()
        .safeParse(one.json);
      expect(parsed.success, `${one.json.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    // Read through a view (derived counts): the event carries the record exactly as the API answered it.
    expect(r.received.find((one) => one.json.type === "streak.updated")?.json.data).toEqual(renamed);
    expect(rb.received.map((one) => one.json.type).sort()).toEqual([
      "follow.created",
      "follow.deleted",
      "message.created",
    ]);
  });
});
