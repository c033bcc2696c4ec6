import type { z } from "zod";
import type { catalogEntrySchema } from "../../registry/operations/catalog-entry.ts";
import type { Queryable } from "../db/index.ts";
import { normaliseIds } from "./identity.ts";
import type { EntryDraft, ExternalId } from "./types.ts";

/** The catalog entry as resolve answers it (the registry's shape); song_id and id are the same value. */
export type CatalogEntryView = z.infer<typeof catalogEntrySchema>;

const VIEW = `
  select c.id as song_id, c.id, c.domain, c.kind, c.title, c.subtitle, c.creators, c.artwork, c.platform_links,
         coalesce((select jsonb_object_agg(x.namespace, x.value order by x.created_at desc, x.value desc)
                     from public.catalog_external_ids x where x.entry_id = c.id), '{}'::jsonb) as external_ids,
         c.canonical_url, c.release_date, c.attributes, c.partial, c.created_at, c.updated_at
    from public.catalog_entries c`;

export async function readEntries(tx: Queryable, ids: readonly string[]): Promise<CatalogEntryView[]> {
  if (!ids.length) return [];
  const rows = await tx.query<CatalogEntryView>(
    `${VIEW} where c.id in (select jsonb_array_elements_text($1::jsonb)::uuid)`,
    [JSON.stringify(ids)],
  );
  return ids.flatMap((id) => rows.find((row) => row.id === id) ?? []);
}

/**
 * The entry these external ids already name. When they name several (a duplicate the next write
 * merges), the one that will survive the merge: the complete one, then the oldest.
 */
export async function findByIds(
  tx: Queryable,
  given: readonly ExternalId[],
): Promise<{ id: string; partial: boolean } | null> {
  const ids = normaliseIds(given);
  if (!ids.length) return null;
  const [row] = await tx.query<{ id: string; partial: boolean }>(
    `select c.id, c.partial from public.catalog_external_ids x
       join public.catalog_entries c on c.id = x.entry_id
       join jsonb_to_recordset($1::jsonb) as i(namespace text, value text) on i.namespace = x.namespace and i.value = x.value
      order by c.partial, c.created_at, c.id limit 1`,
    [JSON.stringify(ids)],
  );
  return row ?? null;
}

/** Writes through the definer function: members cannot write the catalog table themselves. */
export async function upsertDraft(tx: Queryable, draft: EntryDraft): Promise<string> {
  const [row] = await tx.query<{ id: string }>("select app_private.upsert_catalog_entry($1::jsonb) as id", [
    JSON.stringify(draft),
  ]);
  if (!row) throw new Error("upsert_catalog_entry returned nothing");
  return row.id;
}

/**
 * An entry by id; for an id merged into another entry (the same work found twice), the survivor,
 * with mergedFrom naming the id asked for. Null when neither exists. Readers that found an id a
 * moment ago use it too: a merge committed in between leaves them the survivor, not nothing.
 */
export async function readCurrent(
  tx: Queryable,
  id: string,
): Promise<{ entry: CatalogEntryView; mergedFrom: string | null } | null> {
  const [entry] = await readEntries(tx, [id]);
  if (entry) return { entry, mergedFrom: null };
  const [merge] = await tx.query<{ survivor_id: string }>(
    "select survivor_id from public.catalog_merges where merged_id = $1",
    [id],
  );
  const [survivor] = merge ? await readEntries(tx, [merge.survivor_id]) : [];
  return survivor ? { entry: survivor, mergedFrom: id } : null;
}
