import { z } from "zod";
import { defineResource } from "../define.ts";
import { createdAtField, idField, updatedAtField } from "../fields.ts";
import { recurrenceSchema } from "../recurrence.ts";

export const todos = defineResource({
  name: "todos",
  toolPrefix: "todos",
  singular: "todo",
  description: "A task, one-off or recurring, with optional reminders.",
  table: "public.todos",
  scope: "todos",
  verbs: ["list", "get", "create", "update", "delete"],
  fields: {
    id: idField("todo"),
    title: {
      schema: z.string().trim().min(1).max(500),
      required: true,
      description: "What to do.",
      example: "Renew passport",
    },
    notes: { schema: z.string().max(5000), default: "", description: "Details.", example: "Bring two photos." },
    due_at: {
      schema: z.iso.datetime({ offset: true }),
      nullable: true,
      description: "When it is due (RFC 3339).",
      example: "2026-12-01T09:00:00Z",
    },
    status: { schema: z.enum(["open", "done"]), default: "open", description: "open or done.", example: "open" },
    recurrence: {
      schema: recurrenceSchema,
      nullable: true,
      description:
        "RRULE subset: FREQ=DAILY|WEEKLY|MONTHLY, optional INTERVAL (1–999), BYDAY (MO..SU, with WEEKLY only). Uppercase, parts separated by ';'. Needs due_at.",
      example: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH",
    },
    reminders: {
      schema: z.array(z.int().min(0).max(525_600)).max(5),
      default: [],
      description: "Up to five reminders, in minutes before due_at.",
      example: [60, 1440],
    },
    completed_at: {
      schema: z.iso.datetime({ offset: true }),
      nullable: true,
      readOnly: true,
      description: "When it was last marked done (for a recurring todo: its latest completion).",
      example: null,
    },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "own", column: "owner_id" },
  filters: {
    status: {
      schema: z.enum(["open", "done"]),
      description: "Only todos with this status.",
      sql: { kind: "equals", column: "status" },
    },
  },
  events: ["todo.created", "todo.updated", "todo.deleted"],
  rules: [
    "A recurrence outside the subset is 422 naming what is wrong; a recurring todo needs due_at (422 otherwise).",
    "Setting status to done records completed_at. On a recurring todo it also moves due_at to the rule's first occurrence after now (same local time in the member's profile time zone; occurrences already past are skipped) and status stays open.",
    "MONTHLY keeps the day of the month; months without that day (e.g. the 31st) are skipped, as in RFC 5545. WEEKLY with BYDAY steps through the listed days, INTERVAL weeks apart.",
    "Reminders are at most five offsets in minutes before due_at (0–525600); on a todo without due_at they are kept but have nothing to count from.",
  ],
});
