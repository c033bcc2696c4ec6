import { DEFAULT_PAGE_SIZE } from "../../registry/pagination.ts";
import type { Queryable } from "../db/index.ts";
import { withJsonText } from "../http/json-text.ts";
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
 * cursor's keyset, and limit + 1 rows to learn has_more. `from` is a table or view read as `t`,
 * `where` its conditions over `params` ($1…), `columns` the record's fields as SQL over `j`, the
 * row as jsonb (a field that is no column reads null), in the order the API answers them.
 *
 * The database writes the page's JSON itself, records in the API's shape, and the REST answer
 * sends that text unchanged (lib/http/json-text.ts): no JSON.parse of the page, no record objects,
 * no JSON.stringify (bench/results). Other surfaces read `data` as usual, parsed on first use.
 */
export async function keysetPage<T>(
  tx: Queryable,
  query: PageQuery,
  page: { after?: unknown; limit?: unknown },
  columns: readonly string[],
): Promise<Page<T>> {
  const { text: sql, params } = pageSql(query, page, columns);
  // The page is a read's last statement (lib/db/types.ts).
  const [row] = await tx.queryLast<{ data: string; has_more: boolean; last_at: string | null; last_id: string | null }>(
    sql,
    params,
  );
  const hasMore = row?.has_more === true;
  const nextCursor =
    hasMore && row?.last_at && row.last_id ? encodeCursor({ createdAt: row.last_at, id: row.last_id }) : null;
  const text = row?.data ?? "[]";
  let data: T[] | undefined;
  const result: Page<T> = {
    get data() {
      data ??= JSON.parse(text) as T[];
      return data;
    },
    has_more: hasMore,
    next_cursor: nextCursor,
  };
  return withJsonText(result, `{"data":${text},"has_more":${hasMore},"next_cursor":${JSON.stringify(nextCursor)}}`);
}

export interface PageQuery {
  from: string;
  where: readonly string[];
  params: readonly unknown[];
}

/** keysetPage's one statement (the bench's raw loop runs it too). */
export function pageSql(
  query: PageQuery,
  page: { after?: unknown; limit?: unknown },
  columns: readonly string[],
): { text: string; params: unknown[] } {
  const limit = typeof page.limit === "number" ? page.limit : DEFAULT_PAGE_SIZE;
  const where = [...query.where];
  const params = [...query.params];
  if (typeof page.after === "string") {
    const cursor = decodeCursor(page.after);
    params.push(cursor.createdAt, cursor.id);
    where.push(`(t.created_at, t.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(limit);
  const $limit = `$${params.length}::int`;
  // Records are rendered for the page only, after the limit: rendered for every matching row
  // first, the page's cost grew with the member's table when the planner sorted instead of
  // walking the index. The cursor keeps created_at's microseconds, as JSON renders it.
  const text = `select '[' || coalesce(string_agg(p.record, ',' order by p.n) filter (where p.n <= ${$limit}), '') || ']' as data,
            count(*) > ${$limit} as has_more,
            max(p.at) filter (where p.n = ${$limit}) as last_at,
            max(p.id) filter (where p.n = ${$limit}) as last_id
     from (
       select (select row_to_json(r) from (select ${columns.join(", ")}) r)::text as record,
              row_number() over (order by t.created_at desc, t.id desc) as n,
              to_jsonb(t.created_at) #>> '{}' as at, t.id::text as id
       from (
         select * from ${query.from} t ${where.length ? `where ${where.join(" and ")}` : ""}
         order by t.created_at desc, t.id desc limit ${$limit} + 1
       ) t, to_jsonb(t) j
     ) p`;
  return { text, params };
}
