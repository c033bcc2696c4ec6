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
