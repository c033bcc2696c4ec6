import { DEFAULT_PAGE_SIZE } from "../../registry/pagination.ts";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "../http/problem.ts";

/**
 * Cursors are opaque to clients: base64url of a small JSON array holding a keyset. Each list
 * kind has its own keyset and a parser that accepts only what it issued.
 */
export function encodeOpaqueCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

export function decodeOpaqueCursor<T>(value: string, parse: (parts: readonly unknown[]) => T | null): T {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    const cursor = Array.isArray(parsed) ? parse(parsed) : null;
    if (cursor) return cursor;
  } catch {
    // fall through to the refusal below
  }
  throw new ApiError("invalid_request", "The cursor is not one this service issued.", {
    errors: [{ pointer: "/after", code: "invalid_cursor", message: "Pass next_cursor from a previous page unchanged." }],
  });
}

export const isUuid = (value: unknown): value is string =>
  typeof value === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Resource lists: newest first by (created_at with microseconds, id). */
export interface Cursor {
  createdAt: string;
  id: string;
}

export const encodeCursor = (cursor: Cursor) => encodeOpaqueCursor([cursor.createdAt, cursor.id]);

export const decodeCursor = (value: string): Cursor =>
  decodeOpaqueCursor(value, ([createdAt, id, ...rest]) =>
    typeof createdAt === "string" && !Number.isNaN(Date.parse(createdAt)) && isUuid(id) && rest.length === 0
      ? { createdAt, id }
      : null,
  );

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * One page of a list, newest first by (created_at, id) — the convention of every list: the
 * cursor's keyset, limit + 1 rows to learn has_more, and the page leaving the database as one json
 * value (a row per record is a protocol message and a JSON.parse each; bench/results). `from` is a
 * table or view read as `t`, `where` its conditions over `params` ($1…).
 */
export async function keysetPage<T>(
  tx: Queryable,
  query: { from: string; where: readonly string[]; params: readonly unknown[] },
  page: { after?: unknown; limit?: unknown },
  shape: (row: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const limit = typeof page.limit === "number" ? page.limit : DEFAULT_PAGE_SIZE;
  const where = [...query.where];
  const params = [...query.params];
  if (typeof page.after === "string") {
    const cursor = decodeCursor(page.after);
    params.push(cursor.createdAt, cursor.id);
    where.push(`(t.created_at, t.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(limit + 1);
  // JSON is built for the page only, after the limit: built for every matching row first, the
  // page's cost grew with the member's table when the planner sorted instead of walking the index.
  // The page is a read's last statement (lib/db/types.ts).
  const [row] = await tx.queryLast<{ page: Record<string, unknown>[] | null }>(
    `select json_agg(t order by t.created_at desc, t.id desc) as page from (
       select * from ${query.from} t ${where.length ? `where ${where.join(" and ")}` : ""}
       order by t.created_at desc, t.id desc limit $${params.length}
     ) t`,
    params,
  );
  const rows = row?.page ?? [];
  const records = rows.slice(0, limit);
  const last = records.at(-1);
  const hasMore = rows.length > limit;
  return {
    data: records.map(shape),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ createdAt: String(last.created_at), id: String(last.id) }) : null,
  };
}
