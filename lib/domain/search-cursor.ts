import { ApiError } from "../http/problem.ts";

/** Search pages are ordered by (score desc, id): the cursor is that keyset, opaque to clients. */
export interface SearchCursor {
  score: string;
  id: string;
}

export const encodeSearchCursor = (cursor: SearchCursor) =>
  Buffer.from(JSON.stringify(["s", cursor.score, cursor.id])).toString("base64url");

export function decodeSearchCursor(value: string): SearchCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed[0] === "s" &&
      typeof parsed[1] === "string" &&
      /^-?\d+(\.\d+)?$/.test(parsed[1]) &&
      typeof parsed[2] === "string" &&
      /^[0-9a-f-]{36}$/i.test(parsed[2])
    ) {
      return { score: parsed[1], id: parsed[2] };
    }
  } catch {
    // fall through to the refusal below
  }
  throw new ApiError("invalid_request", "The cursor is not one this service issued.", {
    errors: [{ pointer: "/after", code: "invalid_cursor", message: "Pass next_cursor from a previous page unchanged." }],
  });
}
