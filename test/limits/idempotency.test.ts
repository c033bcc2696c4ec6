import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import { idempotencyClock, idempotencyFor, purgeExpiredIdempotencyKeys } from "@/lib/pipeline/idempotency";
import { parseCapabilityInput } from "@/lib/pipeline/parse";
import { capabilityByTool } from "@/registry/capabilities";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

const post = (token: string, key: string | null, body: unknown) =>
  api("POST", "/collections", { token, body, headers: key === null ? {} : { "idempotency-key": key } });

const countCollections = async (memberId: string) => {
  const [row] = await asService((tx) =>
    tx.query<{ n: number }>("select count(*)::int as n from public.collections where owner_id = $1", [memberId]),
  );
  return row?.n ?? -1;
};

const storedKeys = (memberId: string) =>
  asService((tx) =>
    tx.query<{ key: string; state: string }>(
      "select key, state from app_private.idempotency_keys where member_id = $1 order by created_at",
      [memberId],
    ),
  );

const realClock = idempotencyClock.now;
afterEach(() => {
  idempotencyClock.now = realClock;
});

describe("Idempotency-Key on creates", () => {
  it("replays the first response to a retry with Idempotent-Replayed: true and creates nothing more", async () => {
    const ada = await makeMember();
    const key = randomUUID();
    const first = await post(ada.token, key, { name: "Road trip", type: "music" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(ada.token, key, { type: "music", name: "Road trip" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("ratelimit")).toBeTruthy();
    expect(await countCollections(ada.id)).toBe(1);
    // The structured-field string form names the same key as the bare form.
    const quoted = await post(ada.token, `"${key}"`, { name: "Road trip", type: "music" });
    expect(quoted.headers.get("idempotent-replayed")).toBe("true");
    expect(quoted.body.id).toBe(first.body.id);
    // Without a key, or with another key, a create is a new create.
    expect((await post(ada.token, null, { name: "Road trip", type: "music" })).body.id).not.toBe(first.body.id);
    expect((await post(ada.token, "another-key", { name: "Road trip", type: "music" })).status).toBe(201);
    expect(await countCollections(ada.id)).toBe(3);
  });

  it("refuses the same key with another payload (422) and keeps keys apart per member", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const key = `"order-${randomUUID()}"`;
    expect((await post(ada.token, key, { name: "A", type: "music" })).status).toBe(201);
    const other = await post(ada.token, key, { name: "B", type: "music" });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: "idempotency_mismatch", status: 422 });
    expect(other.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    // The same key on another create capability is another payload too.
    const todo = await api("POST", "/todos", {
      token: ada.token,
      body: { title: "A" },
      headers: { "idempotency-key": key },
    });
    expect(todo.body.code).toBe("idempotency_mismatch");
    expect(await countCollections(ada.id)).toBe(1);
    // Another member's identical key is theirs alone.
    const bobs = await post(bob.token, key, { name: "B", type: "music" });
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 400 for an empty, malformed or over-long key, and accepts 255 characters", async () => {
    const ada = await makeMember();
    for (const bad of ['""', "", '"unterminated', "two, keys", '"a" "b"', "x".repeat(256), `"${"y".repeat(256)}"`]) {
      const response = await post(ada.token, bad, { name: "A", type: "music" });
      expect(response.status, `key ${bad.slice(0, 20)}`).toBe(400);
      expect(response.body.code).toBe("malformed_request");
    }
    expect(await countCollections(ada.id)).toBe(0);
    expect((await post(ada.token, "k".repeat(255), { name: "A", type: "music" })).status).toBe(201);
    // An escaped quote counts as one character of the key.
    expect((await post(ada.token, `"q\\"${"k".repeat(253)}"`, { name: "A", type: "music" })).status).toBe(201);
  });

  it("stores nothing when the write fails, so the same key can be retried", async () => {
    const ada = await makeMember();
    expect((await api("PATCH", "/collection-types", { token: ada.token, body: { film: false } })).status).toBe(200);
    const key = randomUUID();
    const refused = await post(ada.token, key, { name: "Noir", type: "film" });
    expect(refused.status).toBe(403);
    expect(await storedKeys(ada.id)).toEqual([]);
    await api("PATCH", "/collection-types", { token: ada.token, body: { film: true } });
    const retried = await post(ada.token, key, { name: "Noir", type: "film" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await storedKeys(ada.id)).toEqual([{ key, state: "done" }]);
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const ada = await makeMember();
    const capability = capabilityByTool.get("collections_create");
    if (!capability) throw new Error("collections_create is missing");
    const body = { name: "Slow", type: "music" };
    const key = randomUUID();
    // The pipeline's own step holds the key, as a request that has not finished yet would.
    const first = idempotencyFor(capability, new Headers({ "idempotency-key": key }));
    expect(await first.reserve(ada.id, parseCapabilityInput(capability, body))).toBeNull();
    const retry = await post(ada.token, key, body);
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe("idempotency_in_flight");
    expect(retry.headers.get("retry-after")).toBe("1");
    // A different payload is still a mismatch, even in flight.
    expect((await post(ada.token, key, { ...body, name: "Other" })).status).toBe(422);
    // The first one fails and lets go: the retry now runs.
    await first.release();
    expect((await post(ada.token, key, body)).status).toBe(201);
  });

  it("lets a retry take over a reservation whose holder died (lease over)", async () => {
    const ada = await makeMember();
    const capability = capabilityByTool.get("collections_create");
    if (!capability) throw new Error("collections_create is missing");
    const body = { name: "Orphan", type: "music" };
    const key = randomUUID();
    await idempotencyFor(capability, new Headers({ "idempotency-key": key })).reserve(
      ada.id,
      parseCapabilityInput(capability, body),
    );
    const start = Date.now();
    idempotencyClock.now = () => new Date(start + 61_000);
    const retry = await post(ada.token, key, body);
    expect(retry.status).toBe(201);
    expect(await countCollections(ada.id)).toBe(1);
  });

  it("lets exactly one of 20 concurrent requests with one key create a row", async () => {
    const ada = await makeMember();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(ada.token, key, { name: "Race", type: "music" })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const created = responses.filter((response) => response.status === 201);
    expect(created.filter((response) => response.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
    for (const conflict of responses.filter((response) => response.status === 409)) {
      expect(conflict.body.code).toBe("idempotency_in_flight");
    }
    expect(await countCollections(ada.id)).toBe(1);
    const replay = await post(ada.token, key, { name: "Race", type: "music" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(created[0]?.body.id);
  });

  it("forgets a key after 24 hours: the same request then creates again, and expired keys are purged", async () => {
    const ada = await makeMember();
    const key = randomUUID();
    const start = Date.now();
    idempotencyClock.now = () => new Date(start);
    const first = await post(ada.token, key, { name: "Daily", type: "music" });
    idempotencyClock.now = () => new Date(start + 24 * 3600_000 - 1000);
    expect((await post(ada.token, key, { name: "Daily", type: "music" })).headers.get("idempotent-replayed")).toBe(
      "true",
    );
    idempotencyClock.now = () => new Date(start + 24 * 3600_000 + 1000);
    const later = await post(ada.token, key, { name: "Daily", type: "music" });
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await countCollections(ada.id)).toBe(2);
    expect(await storedKeys(ada.id)).toHaveLength(1);
    // The periodic purge removes every expired key, this member's included.
    expect(await purgeExpiredIdempotencyKeys(new Date(start + 49 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(ada.id)).toEqual([]);
  });

  it("ignores the header on operations that do not create", async () => {
    const ada = await makeMember();
    const created = await post(ada.token, null, { name: "Edit me", type: "music" });
    const headers = { "idempotency-key": '""' };
    const patched = await api("PATCH", `/collections/${created.body.id}`, {
      token: ada.token,
      body: { name: "Edited" },
      headers,
    });
    expect(patched.status).toBe(200);
    expect(await storedKeys(ada.id)).toEqual([]);
  });
});
