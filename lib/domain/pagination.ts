import { ApiError } from "../http/problem.ts";

export interface Cursor {
  createdAt: string;
  id: string;
}

/** Opaque to clients: base64url of the keyset (created_at with microseconds, id). */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === "string" &&
      !Number.isNaN(Date.parse(parsed[0])) &&
      typeof parsed[1] === "string" &&
      /^[0-9a-f-]{36}$/i.test(parsed[1])
    ) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through to the refusal below
  }
  throw new ApiError("invalid_request", "The cursor is not one this service issued.", {
    errors: [{ pointer: "/after", code: "invalid_cursor", message: "Pass next_cursor from a previous page unchanged." }],
  });
}
