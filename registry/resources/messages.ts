import { z } from "zod";
import { defineResource } from "../define.ts";
import { createdAtField, idField } from "../fields.ts";

export const messages = defineResource({
  name: "messages",
  toolPrefix: "messages",
  singular: "message",
  description: "A direct message between two members. Written once; never edited or deleted through the API.",
  table: "public.messages",
  scope: "messages",
  verbs: ["list", "get", "create"],
  fields: {
    id: idField("message"),
    sender_id: {
      schema: z.uuid(),
      readOnly: true,
      description: "The member who sent it; always the token's member on create.",
      example: "0b7e5a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c",
    },
    recipient_id: {
      schema: z.uuid(),
      required: true,
      description: "The member it is sent to.",
      references: "member",
      example: "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
    },
    body: { schema: z.string().min(1).max(10000), required: true, description: "The text.", example: "See you at 8?" },
    attachment_key: {
      schema: z.string().min(1).max(300),
      nullable: true,
      description:
        "Key of a completed upload of the sender with purpose attachment (POST /uploads). Subject to the recipient's attachment consent.",
      example: null,
      uploadPurpose: "attachment",
    },
    attachment_url: {
      schema: z.url({ protocol: /^https$/ }).max(2000),
      nullable: true,
      description: "An https link sent as an attachment. Subject to the recipient's attachment consent.",
      example: null,
    },
    created_at: createdAtField,
  },
  list: { rows: "either", columns: ["sender_id", "recipient_id"] },
  filters: {
    with: { schema: z.uuid(), description: "Only the conversation with this member.", sql: { kind: "counterpart" } },
  },
  events: ["message.created"],
  // Both sides can read a message, so both sides' endpoints receive it.
  eventSource: { audience: ["sender_id", "recipient_id"] },
  activityWithoutImage: true,
  rules: [
    "The list shows messages the member sent or received, newest first.",
    "Refused (403 write_refused) when either member has blocked the other.",
    "An attachment is refused unless the recipient's attachment_consent allows it: everyone; following (the recipient follows the sender); nobody.",
  ],
});
