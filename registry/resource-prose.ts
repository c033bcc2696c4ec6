import type { ResourceSpec } from "./define.ts";
import { memberResources } from "./member-resources.ts";

/**
 * The member's data named in prose, from the registry, for every text that lists it (the MCP
 * instructions, the reference, the pages): a new resource is named there without an edit.
 */

/** A resource's name in a sentence: "collection types" for collection-types. */
export const proseName = (resource: ResourceSpec) => resource.name.replace(/-/g, " ");

/** "a, b and c". */
export function listInProse(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** Every member resource, in registry order: "collections, items, …, collection types and profile". */
export const MEMBER_DATA_IN_PROSE = listInProse(memberResources.map(proseName));

/**
 * What each resource's export document holds, for the export's rules: its name, plus what sets it
 * apart, read from its declaration (nested children, rows naming the member in more than one
 * column, a list of every row of which only the member's own are exported, secrets left out).
 */
export function exportDocumentInProse(resource: ResourceSpec, memberColumns: readonly string[]): string {
  const notes = [
    ...(resource.exportChildren ? [`with ${resource.exportChildren.key}`] : []),
    ...(memberColumns.length > 1 ? [`rows naming the member as ${memberColumns.join(" or ")}`] : []),
    ...(resource.list?.rows === "all" ? ["only the member's own"] : []),
    ...Object.entries(resource.fields)
      .filter(([, field]) => field.shownOnce)
      .map(([name]) => `never their ${name}`),
  ];
  return notes.length ? `${resource.name} (${notes.join("; ")})` : resource.name;
}
