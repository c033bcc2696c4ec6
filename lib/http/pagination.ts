import { isUuid } from "../../registry/fields.ts";
import { DEFAULT_PAGE_SIZE } from "../../registry/pagination.ts";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "./problem.ts";
import { serializedBody } from "./respond.ts";

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
    errors: [
      { pointer: "/after", code: "invalid_cursor", message: "Pass next_cursor from a previous page unchanged." },
    ],
  });
}

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
 * cursor's keyset, limit + 1 rows to learn has_more. `from` is a table or view read as `t`, `where`
 * its conditions over `params` ($1…), `columns` the record's fields as select-list expressions over
 * `t`, in the order the API answers them.
 *
 * The page leaves the database as one JSON text, which REST sends as it is: parsed into records
 * and serialized again, it cost the main thread ~10% of a list request (bench/results). JSON is
 * built for the page only, after the limit: built for every matching row first, the page's cost
 * grew with the member's table when the planner sorted instead of walking the index. The page is
 * a read's last statement (lib/db/types.ts).
 */
export async function keysetPage<T>(
  tx: Queryable,
  query: { from: string; where: readonly string[]; params: readonly unknown[] },
  page: { after?: unknown; limit?: unknown },
  columns: readonly string[],
): Promise<Page<T>> {
  const limit = typeof page.limit === "number" ? page.limit : DEFAULT_PAGE_SIZE;
  const where = [...query.where];
  const params = [...query.params];
  if (typeof page.after === "string") {
    const cursor = decodeCursor(page.after);
    params.push(cursor.createdAt, cursor.id);
    // Sub-selects, as the limit below: planned for a cursor near a member's oldest rows, the page looked
    // cheaper than the generic plan, and every such page was planned again (test/rls/list-plan.test.ts).
    where.push(
      `(t.created_at, t.id) < ((select $${params.length - 1}::timestamptz), (select $${params.length}::uuid))`,
    );
  }
  params.push(limit);
  const k = `$${params.length}::int`;
  // limit + 1 rows in the index's order, which array_agg keeps over a sorted subquery without
  // sorting again (as PostgREST's json_agg does): an ordered aggregate, or row_number() to tell the
  // extra row apart, cost Postgres more than the parse this saves (bench/results). The limit is a
  // sub-select for the reason the member's id is one (list-scopes.ts): the prepared list keeps its
  // generic plan.
  const [row] = await tx.queryLast<{
    page: string;
    has_more: boolean;
    last_created_at: string | null;
    last_id: string | null;
  }>(
    `select coalesce(array_to_json(p.records[1:${k}]), '[]')::text as page,
            coalesce(cardinality(p.records), 0) > ${k} as has_more,
            to_json(p.created[${k}]) #>> '{}' as last_created_at,
            p.ids[${k}]::text as last_id
       from (select array_agg(r) as records, array_agg(t.created_at) as created, array_agg(t.id) as ids
               from (select * from ${query.from} t ${where.length ? `where ${where.join(" and ")}` : ""}
                      order by t.created_at desc, t.id desc limit (select ${k} + 1)) t
               cross join lateral (select ${columns.join(", ")}) r) p`,
    params,
  );
  if (!row) throw new Error("a page query answered no row");
  const cursor =
    row.has_more && row.last_created_at && row.last_id
      ? encodeCursor({ createdAt: row.last_created_at, id: row.last_id })
      : null;
  return serializedPage<T>(row.page, row.has_more, cursor);
}

/**
 * A page whose records stay JSON text until something reads `data`; until then (and while the
 * page keeps its three fields) that text is the body REST answers (lib/http/respond.ts).
 */
export function serializedPage<T>(text: string, hasMore: boolean, nextCursor: string | null): Page<T> {
  let records: T[] | undefined;
  const page = Object.defineProperty({} as Page<T>, "data", {
    enumerable: true,
    get: () => (records ??= JSON.parse(text) as T[]),
    set: (value: T[]) => {
      records = value;
    },
  });
  page.has_more = hasMore;
  page.next_cursor = nextCursor;
  const serialized = () =>
    records === undefined && Object.keys(page).length === 3
      ? `{"data":${text},"has_more":${JSON.stringify(page.has_more)},"next_cursor":${JSON.stringify(page.next_cursor)}}`
      : undefined;
  return Object.defineProperty(page, serializedBody, { value: serialized });
}
