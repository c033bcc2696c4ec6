import { isUuid } from "../../registry/fields.ts";
import { decodeOpaqueCursor, encodeOpaqueCursor } from "../http/pagination.ts";

/** Search pages are ordered by (score desc, id): the cursor is that keyset, opaque to clients. */
export interface SearchCursor {
  score: string;
  id: string;
}

export const encodeSearchCursor = (cursor: SearchCursor) => encodeOpaqueCursor(["s", cursor.score, cursor.id]);

export const decodeSearchCursor = (value: string): SearchCursor =>
  decodeOpaqueCursor(value, ([tag, score, id, ...rest]) =>
    tag === "s" && typeof score === "string" && /^-?\d+(\.\d+)?$/.test(score) && isUuid(id) && rest.length === 0
      ? { score, id }
      : null,
  );
