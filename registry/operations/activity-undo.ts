import { z } from "zod";
import { ACTIVITY_KEEP_DAYS, ACTIVITY_SOURCES, RESOURCES_WITHOUT_IMAGE } from "../activity.ts";
import { defineOperation } from "../define.ts";
import { listInProse, proseName } from "../resource-prose.ts";
import type { Scope } from "../scopes.ts";

/** The write scopes of what undo can restore: any one lists the tool; the write undone needs its own. */
const UNDO_SCOPES = [
  ...new Set(ACTIVITY_SOURCES.filter((source) => source.image).map((source) => `${source.resource.scope}:write`)),
] as Scope[];

export const activityUndo = defineOperation({
  name: "activity_undo",
  summary: "Undo this credential's last write",
  description:
    `Take back an update or a delete this token (or app) made, when the member asks: the one named by activity_id, or by default its latest write not undone yet (an undo's own writes do not count, so each call walks back one more). ` +
    `The default never passes over that latest write to take back an older one: when it cannot be undone (a create, say) or its record changed since, the answer is 409 saying why and naming the write before it, and the default stays on it; name an older write by activity_id to undo that one instead. ` +
    `A delete comes back with its id and what went with it (a collection's items, a streak's check-ins); an update gets its previous values back, but only if nothing changed the record since (an undo of a later write, which put the record back, does not count) — otherwise 409 names what changed and nothing is overwritten. ` +
    `Writes can be undone for ${ACTIVITY_KEEP_DAYS} days. Creates are not undone (delete the record instead), nor are check-ins (append-only), messages (their bodies are never copied) or changes to ${listInProse(RESOURCES_WITHOUT_IMAGE.map(proseName))}, whose previous state is not kept (a webhook endpoint's secret is never copied; switch a collection type back instead). ` +
    "The member sees every write of each token and app, refused attempts included, under Settings → Activity, and can undo from there.",
  method: "POST",
  path: "/activity/undo",
  scope: UNDO_SCOPES[0] as Scope,
  answersByScope: UNDO_SCOPES,
  input: z.strictObject({
    activity_id: z
      .uuid()
      .optional()
      .describe(
        "The write to undo (returned by an earlier undo, named by a refused default undo, or shown under Settings → Activity); default: this credential's latest write not undone yet.",
      ),
  }),
  output: z
    .object({
      activity_id: z.uuid().describe("The write taken back."),
      operation: z.string().describe("What that write was, as an event kind (item.deleted, collection.updated…)."),
      record_id: z.uuid().describe("The record it touched."),
      restored: z.array(z.uuid()).describe("Every record put back: the record, and for a delete what went with it."),
    })
    .describe("What the undo put back."),
  rules: [
    "Only the same credential's writes: another token's, or another member's, are 404.",
    "Needs the write scope of the record it restores (items:write to bring back an item).",
    "An undo is a write like any other: RLS, blocks and the store's rules apply, it fires webhook events, and it cannot be undone twice.",
  ],
  errors: [
    { status: 404, code: "not_found", when: "No such write of this credential, or none left to undo." },
    {
      status: 409,
      code: "conflict",
      when: "Already undone, too old, not undoable (a create, a message, a collection type switch), or the record changed since (errors name the fields). A default undo refused so names the write before the latest, to undo by activity_id instead.",
    },
  ],
});
