import type { ResourceSpec } from "../../registry/define.ts";

/** The API record: exactly the registry's fields, in the registry's order, from a to_jsonb row. */
export function toRecord(resource: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(resource.fields)) record[name] = row[name] ?? null;
  return record;
}

/** The same record as SQL over `j`, the row as jsonb, for pages the database renders (keysetPage). */
export function recordColumns(resource: ResourceSpec): string[] {
  return Object.keys(resource.fields).map((name) => `j->'${name}' as "${name}"`);
}
