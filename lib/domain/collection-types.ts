import { COLLECTION_TYPES } from "../../registry/domains.ts";
import { collectionTypes } from "../../registry/resources/collection-types.ts";
import { DEFAULT_PAGE_SIZE } from "../../registry/pagination.ts";
import type { ToolHandler } from "./context.ts";
import { decodeOpaqueCursor, encodeOpaqueCursor } from "../http/pagination.ts";
import { toRecord } from "./record.ts";

type Row = { r: Record<string, unknown> };

/** A page's cursor is the last type answered; a type that is not one of the six is not ours. */
const encodeTypeCursor = (type: string) => encodeOpaqueCursor([type]);
const decodeTypeCursor = (value: string) =>
  decodeOpaqueCursor(value, ([type, ...rest]) =>
    typeof type === "string" && (COLLECTION_TYPES as readonly string[]).includes(type) && rest.length === 0
      ? type
      : null,
  );

/**
 * All six in the same order, paged like every list (limit, after) though a default page holds
 * them all. The update answers the full list (no page parameters in its input).
 */
export const listCollectionTypes: ToolHandler<"collection_types_list"> = async ({ tx, memberId, input }) => {
  const limit = typeof input.limit === "number" ? input.limit : DEFAULT_PAGE_SIZE;
  const after = typeof input.after === "string" ? decodeTypeCursor(input.after) : null;
  const rows = await tx.query<Row>(
    `select to_jsonb(t) as r from public.collection_types t
     where t.owner_id = $1 and array_position($2::text[], t.type) > coalesce(array_position($2::text[], $3::text), 0)
     order by array_position($2::text[], t.type) limit $4::int + 1`,
    [memberId, COLLECTION_TYPES, after, limit],
  );
  const data = rows.slice(0, limit).map((row) => toRecord(collectionTypes, row.r));
  const hasMore = rows.length > limit;
  const last = data.at(-1)?.type;
  return { data, has_more: hasMore, next_cursor: hasMore && typeof last === "string" ? encodeTypeCursor(last) : null };
};

/** PATCH {"music": false, ...}: switches the named types and answers the full list. */
export const updateCollectionTypes: ToolHandler<"collection_types_update"> = async (ctx) => {
  const changes = Object.entries(ctx.input).filter(([, enabled]) => typeof enabled === "boolean");
  if (changes.length) {
    await ctx.tx.query(
      `update public.collection_types t set enabled = c.enabled
       from jsonb_each($1::jsonb) as e, lateral (select (e.value)::boolean as enabled) c
       where t.owner_id = $2 and t.type = e.key and t.enabled is distinct from c.enabled`,
      [JSON.stringify(Object.fromEntries(changes)), ctx.memberId],
    );
  }
  return listCollectionTypes({ ...ctx, input: {} });
};
