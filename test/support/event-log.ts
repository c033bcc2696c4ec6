import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import type { api as apiFunction } from "./api";

export type EventEntry = { id: string; type: string; created_at: string; sequence: number; data: Record<string, any> };

/** How long pullEvents waits at most for the log to give its entries. */
const PULL_CEILING_MS = 60_000;
/**
 * The timeout of a test that pulls: the ceiling for each of two pulls (some tests pull before and
 * after a change) and time for the rest. Under the default 30 s, a long transaction elsewhere on the
 * server timed a test out before the ceiling could answer it.
 */
export const PULLING_TEST_TIMEOUT_MS = 2 * PULL_CEILING_MS + 30_000;

/**
 * Pulls GET /events pages of `limit` from `after` until the log has nothing more, and again until
 * `count` entries came: on the server pass other files' transactions run meanwhile, and an event is
 * answered only once every transaction older than its own has ended (docs/decisions/0018-event-log.md).
 * `api` is a parameter so a test that reloads its modules passes its own copy.
 */
export async function pullEvents(
  api: typeof apiFunction,
  token: string,
  options: { after?: string; types?: string; limit?: number; count?: number } = {},
) {
  const entries: EventEntry[] = [];
  let cursor = options.after;
  let pages = 0;
  // A ceiling, not a wait: on a busy shared server a long transaction elsewhere holds the log back.
  const deadline = Date.now() + PULL_CEILING_MS;
  for (;;) {
    const query = new URLSearchParams({ limit: String(options.limit ?? 50) });
    if (cursor) query.set("after", cursor);
    if (options.types) query.set("types", options.types);
    const page = await api("GET", `/events?${query}`, { token });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(typeof page.body.next_cursor).toBe("string");
    entries.push(...page.body.data);
    cursor = page.body.next_cursor;
    pages++;
    if (page.body.has_more) continue;
    if (entries.length >= (options.count ?? 0) || Date.now() > deadline) break;
    await sleep(50);
  }
  return { entries, cursor: cursor as string, pages };
}
