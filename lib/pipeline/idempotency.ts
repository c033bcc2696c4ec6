import { randomUUID } from "node:crypto";
import type { Capability } from "../../registry/capabilities.ts";
import { IDEMPOTENCY, LIMIT_HEADERS } from "../../registry/limits.ts";
import { asService, type Queryable } from "../db/index.ts";
import { Reply } from "../domain/context.ts";
import { fingerprint, idempotencyKeyFrom } from "../http/idempotency-key.ts";
import { ApiError } from "../http/problem.ts";

/** Injectable for tests of the 24-hour window; the database's own clock is not used for it. */
export const idempotencyClock = { now: (): Date => new Date() };

export interface Replay {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface IdempotencyStep {
  /** Reserves the key, or answers the stored response to replay. Throws 400/409/422. */
  reserve(memberId: string, input: Record<string, unknown>): Promise<Replay | null>;
  /** Inside the write's transaction: stores the response with it. Passes the result through. */
  record<T>(tx: Queryable, result: T): Promise<T>;
  /** A key is reserved: record() runs a statement after the handler's, in its transaction. */
  records(): boolean;
  /** After a failure: frees the key so the client can retry. Never throws. */
  release(): Promise<void>;
}

const NONE: IdempotencyStep = {
  reserve: async () => null,
  record: async (_tx, result) => result,
  records: () => false,
  release: async () => {},
};

/** The idempotency step for one call: a no-op unless the capability creates and a key was sent. */
export function idempotencyFor(capability: Capability, headers: Headers): IdempotencyStep {
  if (!capability.creates || !headers.has(LIMIT_HEADERS.idempotencyKey)) return NONE;
  let held: { memberId: string; key: string; lease: string } | null = null;
  return {
    async reserve(memberId, input) {
      const key = idempotencyKeyFrom(headers);
      if (key === null) return null;
      const lease = randomUUID();
      const outcome = await reserveKey(memberId, key, fingerprint(capability.tool, input), lease);
      if (outcome === "reserved") held = { memberId, key, lease };
      return outcome === "reserved" ? null : outcome;
    },
    async record(tx, result) {
      if (!held) return result;
      const {
        status,
        data,
        headers: extra,
      } = result instanceof Reply ? result : { status: capability.successStatus, data: result, headers: {} };
      const [row] = await tx.query<{ ok: boolean }>(
        "select app_private.complete_idempotent_request($1, $2, $3, $4::json, $5::json) as ok",
        [
          held.key,
          held.lease,
          status,
          JSON.stringify(withoutShownOnce(capability, data) ?? null),
          JSON.stringify(extra),
        ],
      );
      if (!row?.ok) throw inFlight("took longer than its lease and was taken over by a retry");
      // held stays set: should the commit still fail, release() frees the row (it is in flight
      // again after the rollback); after a commit, release() finds no in-flight row to delete.
      return result;
    },
    records: () => held !== null,
    async release() {
      if (!held) return;
      const { memberId, key, lease } = held;
      held = null;
      await asService((tx) =>
        tx.query(
          "delete from app_private.idempotency_keys where member_id = $1 and key = $2 and lease = $3 and state = 'in_flight'",
          [memberId, key, lease],
        ),
      ).catch((error: unknown) =>
        console.error("[idempotency] could not release a key; it frees itself when its lease ends", error),
      );
    },
  };
}

/**
 * A secret shown once (a webhook endpoint's) is never stored with the response: a replay answers
 * null in its place, as every read after the create does.
 */
function withoutShownOnce(capability: Capability, data: unknown): unknown {
  const source = capability.source;
  if (source.kind !== "resource" || data === null || typeof data !== "object") return data;
  const hidden = Object.entries(source.resource.fields).filter(([, field]) => field.shownOnce);
  if (hidden.length === 0) return data;
  return { ...data, ...Object.fromEntries(hidden.map(([name]) => [name, null])) };
}

interface KeyRow {
  fingerprint: string;
  state: "in_flight" | "done";
  status: number | null;
  body: unknown;
  headers: Record<string, string> | null;
  reserved: boolean;
}

/**
 * One short committed transaction: purges the member's expired keys, then inserts the key in
 * flight — or takes over a reservation whose lease ran out — with ON CONFLICT, so of concurrent
 * requests on any number of instances exactly one holds the key; the others read the row.
 */
async function reserveKey(memberId: string, key: string, print: string, lease: string): Promise<"reserved" | Replay> {
  const now = idempotencyClock.now();
  const expires = new Date(now.getTime() + IDEMPOTENCY.windowSeconds * 1000);
  const leaseEnds = new Date(now.getTime() + IDEMPOTENCY.leaseSeconds * 1000);
  const row = await asService(async (tx) => {
    await tx.query("delete from app_private.idempotency_keys where member_id = $1 and expires_at <= $2", [
      memberId,
      now.toISOString(),
    ]);
    const [mine] = await tx.query<KeyRow>(
      `insert into app_private.idempotency_keys as k
         (member_id, key, fingerprint, state, lease, lease_expires_at, created_at, expires_at)
       values ($1, $2, $3, 'in_flight', $4, $5, $6, $7)
       on conflict (member_id, key) do update
         set lease = excluded.lease, lease_expires_at = excluded.lease_expires_at
         where k.state = 'in_flight' and k.lease_expires_at <= $6 and k.fingerprint = excluded.fingerprint
       returning k.fingerprint, k.state, k.status, k.body, k.headers, true as reserved`,
      [memberId, key, print, lease, leaseEnds.toISOString(), now.toISOString(), expires.toISOString()],
    );
    if (mine) return mine;
    const [theirs] = await tx.query<KeyRow>(
      "select fingerprint, state, status, body, headers, false as reserved from app_private.idempotency_keys where member_id = $1 and key = $2",
      [memberId, key],
    );
    return theirs;
  });
  if (!row) throw inFlight("was released while this request looked at it");
  if (row.reserved) return "reserved";
  if (row.fingerprint !== print) {
    throw new ApiError(
      "idempotency_mismatch",
      "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
    );
  }
  if (row.state === "in_flight" || row.status === null) throw inFlight("is still running");
  return {
    status: row.status,
    body: row.body,
    headers: { ...(row.headers ?? {}), [LIMIT_HEADERS.replayed]: "true" },
  };
}

const inFlight = (why: string) =>
  new ApiError("idempotency_in_flight", `The first request with this Idempotency-Key ${why}; retry shortly.`, {
    headers: { [LIMIT_HEADERS.retryAfter]: "1" },
  });

/** Deletes every expired key (reservations also purge the member's own); for a periodic job. */
export async function purgeExpiredIdempotencyKeys(
  now: Date = idempotencyClock.now(),
  within?: Queryable,
): Promise<number> {
  const purge = (tx: Queryable) =>
    tx.query("delete from app_private.idempotency_keys where expires_at <= $1 returning 1", [now.toISOString()]);
  const rows = within ? await purge(within) : await asService(purge);
  return rows.length;
}
