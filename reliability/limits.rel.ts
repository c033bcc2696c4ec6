import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { TOKEN_POLICY } from "@/registry/limits";
import { record } from "./report";
import { call, cliToken, REDIS_URL, scratchDatabase, serve, stopAll } from "./servers";

// Limits under concurrency, on two server processes sharing one Redis and one Postgres: the
// token bucket (30 at once, 2 per second) holds across both within ±1, and 50 concurrent creates
// carrying one Idempotency-Key make one row.

const SECONDS = Number(process.env.RELIABILITY_LIMIT_SECONDS ?? 8);
const CONCURRENCY = 6;

afterAll(stopAll);

describe("limits under concurrency", () => {
  it("two instances sharing Redis hold 30 + 2/s per token within ±1; 50 concurrent creates with one key make one row", async () => {
    const dbUrl = await scratchDatabase();
    const store = { DATABASE_URL: dbUrl };
    // The spec's numbers: empty values select the registry's defaults.
    const limits = { REDIS_URL, RATE_LIMIT_CAPACITY: "", RATE_LIMIT_REFILL_PER_SECOND: "" };
    const token = cliToken(store, "todos:read,todos:write");
    const other = cliToken(store, "todos:read,todos:write");
    const [a, b] = [await serve(store, limits), await serve(store, limits)];
    // Each process opens its database on its first request; open both first, with another token,
    // so the measured bucket starts when its first request is timed.
    for (const server of [a, b]) await call(server.url, "GET", "/todos?limit=1", other);

    let allowed = 0;
    let refused = 0;
    let unexpected = 0;
    let sent = 0;
    let firstStart = Number.POSITIVE_INFINITY;
    let lastStart = 0;
    let lastEnd = 0;
    const until = Date.now() + SECONDS * 1000;
    const worker = async () => {
      while (Date.now() < until) {
        const base = sent++ % 2 ? a.url : b.url;
        const start = Date.now();
        firstStart = Math.min(firstStart, start);
        lastStart = Math.max(lastStart, start);
        const response = await call(base, "GET", "/todos?limit=1", token);
        lastEnd = Math.max(lastEnd, Date.now());
        if (response.status === 200) allowed++;
        else if (response.status === 429) refused++;
        else unexpected++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // A request admitted at its arrival: arrivals lie between the first start and the last end.
    const least = TOKEN_POLICY.capacity + Math.floor(TOKEN_POLICY.refillPerSecond * ((lastStart - firstStart) / 1000));
    const most = TOKEN_POLICY.capacity + Math.floor(TOKEN_POLICY.refillPerSecond * ((lastEnd - firstStart) / 1000));
    const withinOne = allowed >= least - 1 && allowed <= most + 1;

    // One Idempotency-Key, one body, 50 at once across two instances (raised limits: the point
    // here is the key, not the bucket).
    const raised = { REDIS_URL, RATE_LIMIT_CAPACITY: "1000000", RATE_LIMIT_REFILL_PER_SECOND: "" };
    const [c, d] = [await serve(store, raised), await serve(store, raised)];
    const key = `reliability-${Date.now()}`;
    const title = `idempotent ${key}`;
    const creates = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(i % 2 ? c.url : d.url, "POST", "/todos", other, { title }, { "idempotency-key": `"${key}"` }).catch(
          () => ({ status: 0, body: null }),
        ),
      ),
    );
    const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from public.todos where title = ${title}`;
    await sql.end({ timeout: 1 });
    const statuses: Record<string, number> = {};
    for (const response of creates) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    // Every 201 answers the one row (replays carry its id); others are 409 while it is in flight, or 429.
    const ids = new Set(creates.filter((r) => r.status === 201).map((r) => (r.body as { id: string }).id));

    record("limits", {
      rate: {
        seconds: SECONDS,
        instances: 2,
        sent,
        allowed,
        refused,
        other: unexpected,
        expected_between: [least, most],
        within_one: withinOne,
      },
      idempotency: { concurrent: 50, rows: row?.n ?? -1, distinct_ids_answered: ids.size, statuses },
    });
    expect(unexpected).toBe(0);
    expect(withinOne, `allowed ${allowed}, expected ${least}–${most} ±1`).toBe(true);
    expect(row?.n).toBe(1);
    expect(ids.size).toBeLessThanOrEqual(1);
  });
});
