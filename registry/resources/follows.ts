import { z } from "zod";
import { defineResource } from "../define.ts";
import { createdAtField, idField } from "../fields.ts";

export const follows = defineResource({
  name: "follows",
  toolPrefix: "follows",
  singular: "follow",
  description: "Who the member follows (or, with direction=followers, who follows the member).",
  table: "public.follows",
  scope: "social",
  verbs: ["list", "create", "delete"],
  fields: {
    id: idField("follow"),
    follower_id: {
      schema: z.uuid(),
      readOnly: true,
      description: "The member who follows; always the token's member on create.",
      example: "0b7e5a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c",
    },
    followee_id: {
      schema: z.uuid(),
      required: true,
      description: "The member being followed.",
      references: "member",
      example: "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
    },
    created_at: createdAtField,
  },
  list: { rows: "own", column: "follower_id" },
  filters: {
    direction: {
      schema: z.enum(["following", "followers"]),
      description: "following (default): whom the member follows. followers: who follows the member.",
      sql: { kind: "side", columns: { following: "follower_id", followers: "followee_id" } },
    },
  },
  events: ["follow.created", "follow.deleted"],
  // The followee reads the follow too (direction=followers).
  eventSource: { audience: ["follower_id", "followee_id"] },
  rules: [
    "Refused (403 write_refused) when either member has blocked the other.",
    "Following yourself is 422; following someone twice is 409 conflict.",
    "Only the follower can delete a follow; the followee, who can read it, gets 403 write_refused (reason.code not_owner).",
    "Blocking ends the follows between the two members in both directions, a follow asked for while the block is being made included (the store takes the two in turn: that follow waits and is refused, or is made and then ended); lifting the block restores nothing.",
  ],
});
