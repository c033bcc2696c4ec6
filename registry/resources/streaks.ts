import { z } from "zod";
import { defineField, defineResource } from "../define.ts";
import { createdAtField, idField, timezoneField, updatedAtField } from "../fields.ts";

const derived = <S extends z.ZodType>(description: string, schema: S, example: unknown) =>
  defineField({
    schema,
    readOnly: true,
    description: `${description} Derived from the check-ins; not writable.`,
    example,
  });

export const streaks = defineResource({
  name: "streaks",
  toolPrefix: "streaks",
  singular: "streak",
  description: "A habit with its check-in history. Counts change only through POST /streaks/{id}/check-in.",
  // Reads and writes go through a view that derives current_count at read time (see the migration).
  table: "public.streaks_with_counts",
  scope: "streaks",
  verbs: ["list", "get", "create", "update", "delete"],
  fields: {
    id: idField("streak"),
    name: {
      schema: z.string().trim().min(1).max(200),
      required: true,
      description: "The habit.",
      example: "Morning run",
    },
    cadence: {
      schema: z.enum(["daily"]),
      default: "daily",
      description: "How often a check-in is due.",
      example: "daily",
    },
    timezone: {
      ...timezoneField,
      default: undefined,
      description:
        "IANA time zone in which the streak's days are counted. Default: the member's profile timezone at creation.",
    },
    current_count: derived("Consecutive days up to today or yesterday.", z.int().min(0), 4),
    longest_count: derived("Longest run ever.", z.int().min(0), 12),
    last_check_in_on: { ...derived("Day of the latest check-in.", z.iso.date(), "2026-11-21"), nullable: true },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "own", column: "owner_id" },
  events: ["streak.created", "streak.updated", "streak.deleted", "streak.checked_in"],
  eventSource: {
    table: "public.streaks",
    inserts: {
      "streak.checked_in": {
        table: "public.streak_check_ins",
        audience: ["owner_id"],
        description:
          "A day was recorded on one of the member's streaks (POST /streaks/{id}/check-in); data is the check-in.",
      },
    },
  },
  exportChildren: { key: "check_ins", table: "public.streak_check_ins", foreignKey: "streak_id", orderBy: "day, id" },
  rules: [
    "current_count, longest_count and last_check_in_on are derived from the check-ins and read-only: sending them is 422.",
    "current_count is computed when read: the run of consecutive days ending today or yesterday in the streak's time zone, so it reads 0 once a day has been missed, even with no write since.",
    "The only way to change the counts is POST /streaks/{id}/check-in; check-ins are append-only and deleted only with their streak.",
    "Days already recorded keep their date when the timezone changes; only today moves.",
  ],
});
