import type { ResourceSpec } from "../../registry/define.ts";

/** The API record: exactly the registry's fields, in the registry's order, from a to_jsonb row. */
export function toRecord(resource: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(resource.fields)) record[name] = row[name] ?? null;
  return record;
}

/**
 * The same record as SQL over a row `t`, for pages the database renders (keysetPage). A secret
 * shown once has no column (test/db/registry-drift.test.ts) and reads null, as toRecord gives it.
 */
export function recordColumns(resource: ResourceSpec): string[] {
  return Object.entries(resource.fields).map(([name, field]) => (field.shownOnce ? `null::text as "${name}"` : `t."${name}"`));
}
