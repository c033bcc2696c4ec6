import { z } from "zod";
import { defineResource } from "../define.ts";
import { createdAtField, handleSchema, idField, ownerField, updatedAtField } from "../fields.ts";

export const channels = defineResource({
  name: "channels",
  toolPrefix: "channels",
  singular: "channel",
  description: "A public destination of its own, separate from the member's profile. Readable by every member.",
  table: "public.channels",
  scope: "social",
  verbs: ["list", "get", "create", "update"],
  fields: {
    id: idField("channel"),
    owner_id: ownerField("channel"),
    handle: {
      schema: handleSchema,
      required: true,
      description:
        "Unique handle, 3–30 letters, digits or _. Kept as written; uniqueness ignores case (Jazz and jazz are the same handle: 409).",
      example: "late_night_jazz",
      unique: true,
    },
    title: {
      schema: z.string().trim().min(1).max(200),
      required: true,
      description: "Title.",
      example: "Late night jazz",
    },
    description: { schema: z.string().max(2000), default: "", description: "Free text.", example: "" },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "all" },
  filters: {
    owner: {
      schema: z.uuid(),
      description: "Only channels of this member. Without it, every channel.",
      sql: { kind: "equals", column: "owner_id" },
    },
  },
  events: ["channel.created", "channel.updated"],
  rules: [
    "Channels cannot be deleted (405).",
    "Only the owner can change a channel; for anyone else a change is 403 write_refused (reason.code not_owner), since every member can read it.",
    "A handle already taken, in any letter case, is 409 conflict.",
  ],
});
