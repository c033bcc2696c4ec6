import type { ResourceSpec } from "./define.ts";
import { eventPrefix } from "./events.ts";
import { memberResources } from "./member-resources.ts";
import { webhookEndpoints } from "./webhook-endpoints.ts";

/**
 * What the activity ledger records of a credential's writes, and what undo may take back. A create or an
 * update is recorded by the event it fires; every other write by a trigger of its own (both generated from
 * this list into supabase/migrations/*_activity_triggers.sql by scripts/build-activity-triggers.ts;
 * docs/decisions/0021-activity-and-undo.md).
 */
export interface ActivitySource {
  /** The operation as the activity shows it: `<singular>.created|updated|deleted`, or an event of eventSource.inserts. */
  operation: string;
  resource: ResourceSpec;
  table: string;
  on: "insert" | "update" | "delete";
  /** Whether the previous row image is kept, so undo can restore it. */
  image: boolean;
  /** False for a table without an id column (collection types: one switch per type): recorded without record id or image. */
  keyed: boolean;
  /** The columns a member writes: an update that changes none of them is not the credential's write. */
  writable: readonly string[];
}

/** Undo keeps activity this long; the upkeep purges it after (lib/upkeep/tasks.ts). */
export const ACTIVITY_KEEP_DAYS = 30;

const ON = { create: "insert", update: "update", delete: "delete" } as const;
const ACTION = { create: "created", update: "updated", delete: "deleted" } as const;

function sourcesOf(resource: ResourceSpec): ActivitySource[] {
  const table = resource.eventSource?.table ?? resource.table;
  const writable = Object.keys(resource.fields).filter(
    (name) => !resource.fields[name]?.readOnly && !resource.fields[name]?.shownOnce,
  );
  const keyed = "id" in resource.fields;
  const image = keyed && !resource.activityWithoutImage;
  const verbs = (["create", "update", "delete"] as const).filter((verb) => resource.verbs.includes(verb));
  const own = verbs.map((verb) => ({
    operation: `${eventPrefix(resource)}.${ACTION[verb]}`,
    resource,
    table,
    on: ON[verb],
    image,
    keyed,
    writable,
  }));
  // Rows another operation adds (check-ins): recorded when made, and imaged when they go with their parent.
  const children = Object.entries(resource.eventSource?.inserts ?? {}).flatMap(([operation, extra]) => [
    { operation, resource, table: extra.table, on: "insert" as const, image: false, keyed: true, writable: [] },
    {
      operation: `${operation}.deleted`,
      resource,
      table: extra.table,
      on: "delete" as const,
      image,
      keyed: true,
      writable: [],
    },
  ]);
  return [...own, ...children];
}

export const ACTIVITY_SOURCES: readonly ActivitySource[] = [...memberResources, webhookEndpoints].flatMap(sourcesOf);

export const activitySourceByOperation: ReadonlyMap<string, ActivitySource> = new Map(
  ACTIVITY_SOURCES.map((source) => [source.operation, source]),
);

/**
 * The resources whose updates or deletes undo cannot take back, as the ledger keeps no previous image of
 * them (activityWithoutImage, or no id to find the row by): named in the operation's description and its refusal.
 */
export const RESOURCES_WITHOUT_IMAGE: readonly ResourceSpec[] = [
  ...new Set(ACTIVITY_SOURCES.filter((source) => !source.image && source.on !== "insert").map((s) => s.resource)),
];
