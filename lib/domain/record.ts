import type { ResourceSpec } from "../../registry/define.ts";

/** The API record: exactly the registry's fields, in the registry's order, from a to_jsonb row. */
export function toRecord(resource: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(resource.fields)) record[name] = row[name] ?? null;
  return record;
}
