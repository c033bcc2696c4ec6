import type { ResourceSpec } from "./define.ts";

/**
 * Who may change a resource's row, and whether anyone else can read it, derived from the list
 * the registry declares. RLS decides; these name the outcome: a write that touches no row which
 * the member can still read is refused (403 with this reason), not reported as a missing row.
 */

/** The column naming the one member who may change or delete the row: the own-list column, else owner_id. */
export function ownerColumn(resource: ResourceSpec): string {
  return resource.list?.rows === "own" ? resource.list.column : "owner_id";
}

/** "owner" for owner_id, "follower" for follower_id. */
export const ownerRole = (resource: ResourceSpec) => ownerColumn(resource).replace(/_id$/, "").replace(/_/g, " ");

/**
 * Whether a member can read rows that are not theirs to change: a list of every row, of either
 * side's rows, or a filter that starts from rows other than the member's own (another member's
 * public collections, the items of a readable collection, one's followers).
 */
export function readableByOthers(resource: ResourceSpec): boolean {
  if (resource.singleton || !resource.list) return false;
  if (resource.list.rows !== "own") return true;
  return Object.values(resource.filters ?? {}).some((filter) => filter.sql.kind !== "equals");
}

/** The refusal's reason when the row is readable but the write touched nothing. */
export function notOwnerMessage(resource: ResourceSpec, verb: "update" | "delete"): string {
  const action = verb === "update" ? "change" : "delete";
  return `row-level security: this ${resource.singular} belongs to another member; only its ${ownerRole(resource)} may ${action} it`;
}
