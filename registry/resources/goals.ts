import { z } from "zod";
import { defineResource } from "../define.ts";
import { createdAtField, idField, updatedAtField } from "../fields.ts";

const amount = z.number().min(0).max(1e12);

export const goals = defineResource({
  name: "goals",
  toolPrefix: "goals",
  singular: "goal",
  description: "Something being worked toward, with progress toward a target.",
  table: "public.goals",
  scope: "goals",
  verbs: ["list", "get", "create", "update", "delete"],
  fields: {
    id: idField("goal"),
    title: {
      schema: z.string().trim().min(1).max(500),
      required: true,
      description: "The goal.",
      example: "Read 24 books",
    },
    target_value: { schema: amount, required: true, description: "The target, non-negative.", example: 24 },
    current_value: { schema: amount, default: 0, description: "Progress so far, non-negative.", example: 7 },
    unit: { schema: z.string().max(50), default: "", description: "Unit of the values.", example: "books" },
    due_on: { schema: z.iso.date(), nullable: true, description: "Target date (YYYY-MM-DD).", example: "2026-12-31" },
    status: {
      schema: z.enum(["active", "achieved", "abandoned"]),
      default: "active",
      description: "active, achieved or abandoned.",
      example: "active",
    },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "own", column: "owner_id" },
  filters: {
    status: {
      schema: z.enum(["active", "achieved", "abandoned"]),
      description: "Only goals with this status.",
      sql: { kind: "equals", column: "status" },
    },
  },
  events: ["goal.created", "goal.updated", "goal.deleted"],
  rules: [
    "current_value and target_value are non-negative (422 otherwise).",
    "An active goal whose current_value reaches target_value becomes achieved, on create or any update.",
    "An achieved goal stays achieved when current_value later drops below target_value: the achievement is not taken back silently. Setting status back to active is allowed and sticks while current_value is below the target.",
    "abandoned is only set by the member and is never changed by progress.",
  ],
});
