import { z } from "zod";
import { defineOperation } from "../define.ts";
import { EVENT_TYPES, eventKindByType } from "../events.ts";
import { KEEP_EVENTS_DAYS } from "../limits.ts";
import { pageQuery } from "../pagination.ts";
import type { Scope } from "../scopes.ts";

/** The read scope an event kind needs: the one of the resource whose record it carries. */
export const eventReadScope = (type: string): Scope | undefined => {
  const kind = eventKindByType.get(type);
  return kind ? (`${kind.resource.scope}:read` as Scope) : undefined;
};

/** Every read scope some event kind needs, in registry order: any one of them lets the log answer. */
export const EVENT_READ_SCOPES: readonly Scope[] = [
  ...new Set(EVENT_TYPES.map((type) => eventReadScope(type) as Scope)),
];

export const eventLogEntry = z
  .object({
    id: z.uuid().describe("Identifier of the event: the payload's id and the webhook-id header of its deliveries."),
    type: z.enum(EVENT_TYPES).describe("The event kind."),
    created_at: z.iso.datetime({ offset: true }).describe("When the change committed (RFC 3339)."),
    sequence: z
      .int()
      .min(1)
      .nullable()
      .describe("The record's sequence number: one more for each event of the same record (data.id)."),
    data: z
      .record(z.string(), z.unknown())
      .describe(
        "The record as GET answers it (as it was before deletion for a *.deleted event; for connected_app.* the grant), or {id, url} over 256 KB; each kind's schema is in the webhooks section.",
      ),
  })
  .describe("One event, exactly as a webhook delivery carries it.");

export const eventsList = defineOperation({
  name: "events_list",
  summary: "Pull the member's events",
  description:
    `The member's events in order, oldest first, with the same ids and payloads as webhook deliveries, kept ${KEEP_EVENTS_DAYS} days. ` +
    "Pass next_cursor as after to get what came since: an integrator whose receiver was down catches up here.",
  method: "GET",
  path: "/events",
  scope: "collections:read",
  // Each kind needs the read scope of its resource; any one of them lets the log answer.
  answersByScope: EVENT_READ_SCOPES,
  input: z.strictObject({
    after: pageQuery.after.describe(
      "Cursor from next_cursor of a previous answer; without it the log starts at its oldest kept event.",
    ),
    types: z
      .string()
      .regex(
        /^[a-z_]+\.[a-z_]+(,[a-z_]+\.[a-z_]+)*$/,
        "a comma-separated list of event kinds, e.g. item.created,item.updated",
      )
      .max(2000)
      .optional()
      .describe(
        "Only these event kinds, comma-separated (item.created,item.updated); default every kind the token may read.",
      ),
    limit: pageQuery.limit,
  }),
  output: z.object({
    data: z.array(eventLogEntry),
    has_more: z.boolean().describe("Whether more events follow right now."),
    next_cursor: z
      .string()
      .describe("Pass as ?after= to continue. Never null: at the end of the log it is where later events will start."),
  }),
  rules: [
    "Each event kind needs the read scope of its resource (item.* items:read, follow.* and channel.* social:read, streak.* streaks:read, profile.* and connected_app.* profile:read, …): events the token may not read are left out; asking for such a kind in types answers 403 insufficient_scope. Write scopes and webhooks:read add nothing.",
    "Order is the order the store wrote the events in, by transaction; an event appears only once every transaction that began before it has ended, so one that commits late is never skipped by a cursor already handed out. Within one record, sequence gives the order of its changes.",
    "Messages and follows appear in the logs of both members; a record deleted is still in the log as its *.deleted event.",
    `Events are kept ${KEEP_EVENTS_DAYS} days from their creation, then purged: a cursor older than that resumes at the oldest event kept.`,
  ],
  errors: [
    {
      status: 403,
      code: "insufficient_scope",
      when: "types names a kind whose resource's read scope the token lacks.",
    },
    { status: 422, code: "invalid_request", when: "types names an unknown kind, or the cursor is not one we issued." },
  ],
});
