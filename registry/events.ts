import { z } from "zod";
import type { ResourceSpec } from "./define.ts";
import { checkInRecord } from "./operations/streaks-check-in.ts";
import { memberResources } from "./member-resources.ts";
import { recordSchema } from "./resource-schemas.ts";

/**
 * Webhook event kinds, derived from each member resource's `events` and `eventSource`
 * (member-resources.ts, not index.ts: the webhook-endpoints resource validates against this list).
 */

export type EventAction = "created" | "updated" | "deleted";

export interface EventKind {
  /** `<singular>.<verb>`, e.g. item.created. */
  type: string;
  resource: ResourceSpec;
  /** The table whose committed rows fire it. */
  table: string;
  /** The row change that fires it. */
  on: "insert" | "update" | "delete";
  /** Columns of that row naming the members who receive it. */
  audience: readonly string[];
  description: string;
  /** The `data` of the payload. */
  data: z.ZodType;
  /** data is the row's keys named by the data schema, not the resource's record (check-ins, grants). */
  projected: boolean;
  /** An SQL condition on old and new narrowing which updates fire it (default: any change). */
  when?: string;
  /** Where the member sees a record of a related kind (its address over 256 KB); else the REST URL. */
  page?: string;
}

const ON: Record<EventAction, EventKind["on"]> = { created: "insert", updated: "update", deleted: "delete" };

/** The event-kind prefix of a resource: its singular, spaces as underscores. */
export const eventPrefix = (resource: ResourceSpec) => resource.singular.replace(/ /g, "_");

/** The columns naming the members a resource's row belongs to (its events go to them; the export reads by them). */
export function memberColumns(resource: ResourceSpec): readonly string[] {
  if (resource.eventSource?.audience) return resource.eventSource.audience;
  if (resource.list?.rows === "own") return [resource.list.column];
  if (resource.list?.rows === "either") return resource.list.columns;
  return ["owner_id"];
}

function kindsOf(resource: ResourceSpec): EventKind[] {
  return (resource.events ?? []).map((type) => {
    const related = resource.eventSource?.related?.[type];
    if (related) return { type, resource, projected: true, ...related };
    const extra = resource.eventSource?.inserts?.[type];
    if (extra) {
      return {
        type,
        resource,
        table: extra.table,
        on: "insert",
        audience: extra.audience,
        description: extra.description,
        data: checkInRecord,
        projected: true,
      };
    }
    const action = type.slice(eventPrefix(resource).length + 1) as EventAction;
    if (type !== `${eventPrefix(resource)}.${action}` || !(action in ON)) {
      throw new Error(`${resource.name}: event ${type} is not ${eventPrefix(resource)}.created|updated|deleted`);
    }
    return {
      type,
      resource,
      table: resource.eventSource?.table ?? resource.table,
      on: ON[action],
      audience: memberColumns(resource),
      description: `${resource.singular.charAt(0).toUpperCase()}${resource.singular.slice(1)} ${action}${
        action === "deleted"
          ? "; data is the record as it was before deletion"
          : "; data is the record as GET returns it"
      }. Sent to ${memberColumns(resource).join(" and ")}'s endpoints.`,
      data: recordSchema(resource),
      projected: false,
    };
  });
}

export const PING_EVENT = "webhook_endpoint.ping";

/** Every kind a resource fires, in registry order. */
export const EVENT_KINDS: readonly EventKind[] = memberResources.flatMap(kindsOf);

export const EVENT_TYPES: readonly string[] = EVENT_KINDS.map((kind) => kind.type);

export const eventKindByType: ReadonlyMap<string, EventKind> = new Map(EVENT_KINDS.map((kind) => [kind.type, kind]));

/** The envelope every delivery carries (Standard Webhooks: type, timestamp, data). */
export function eventPayloadSchema(type: string, data: z.ZodType) {
  return z.object({
    id: z
      .uuid()
      .describe("Identifier of the event; also the webhook-id header. The same on every retry: deduplicate on it."),
    type: z.literal(type).describe("The event kind."),
    created_at: z.iso.datetime({ offset: true }).describe("When the change committed (RFC 3339)."),
    sequence: z
      .int()
      .min(1)
      .nullable()
      .describe(
        "The record's sequence number: 1 for its first event, one more for each later one (data.id names the record). Deliveries may arrive out of order; apply an update only when its sequence is above the last you applied. The same in a delivery and in the event log (GET /events); null only on events written before sequence numbers existed.",
      ),
    data,
  });
}

/** A record too large for one delivery (over 256 KB) is sent as its address instead. */
export const eventReferenceData = z
  .object({
    id: z.uuid().describe("Identifier of the record."),
    url: z.url().describe("Where to GET the record."),
  })
  .describe("Sent instead of the record when the payload would exceed 256 KB.");

export const pingData = z.object({ endpoint_id: z.uuid().describe("The endpoint pinged.") }).describe("A test event.");

/** Limits of the delivery: one place for the worker and the reference. */
export const WEBHOOK_LIMITS = {
  maxEndpointsPerMember: 10,
  maxPayloadBytes: 256 * 1024,
  maxResponseBytes: 64 * 1024,
  timeoutSeconds: 10,
  /** Delay before each attempt: the Standard Webhooks schedule. */
  scheduleSeconds: [0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600],
  disableAfterFailingDays: 5,
  keepDeliveriesDays: 30,
  previousSecretHours: 24,
} as const;
