import { COLLECTION_TYPES } from "../../registry/domains.ts";
import { collectionTypes } from "../../registry/resources/collection-types.ts";
import type { ToolHandler } from "./context.ts";
import { toRecord } from "./record.ts";

type Row = { r: Record<string, unknown> };

/** All six, always in the same order, as one page (there is never a second). */
export const listCollectionTypes: ToolHandler<"collection_types_list"> = async ({ tx, memberId }) => {
  const rows = await tx.query<Row>(
    `select to_jsonb(t) as r from public.collection_types t where t.owner_id = $1
     order by array_position($2::text[], t.type)`,
    [memberId, COLLECTION_TYPES],
  );
  return { data: rows.map((row) => toRecord(collectionTypes, row.r)), has_more: false, next_cursor: null };
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
  return listCollectionTypes(ctx);
};
