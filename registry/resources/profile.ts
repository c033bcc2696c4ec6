import { z } from "zod";
import { CONNECTED_APP_EVENTS } from "../connected-app-events.ts";
import { defineResource } from "../define.ts";
import { createdAtField, handleSchema, timezoneField, updatedAtField } from "../fields.ts";

export const profile = defineResource({
  name: "profile",
  toolPrefix: "profile",
  singular: "profile",
  description: "The authenticated member's own profile, addressed without an id.",
  table: "public.profiles",
  scope: "profile",
  verbs: ["get", "update"],
  singleton: true,
  fields: {
    id: {
      schema: z.uuid(),
      readOnly: true,
      description: "The member's id (what other members use as recipient_id or followee_id).",
      example: "0b7e5a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c",
    },
    handle: { schema: handleSchema, description: "Unique handle (case-insensitive).", example: "ada", unique: true },
    display_name: { schema: z.string().max(100), description: "Name shown to others.", example: "Ada" },
    bio: { schema: z.string().max(2000), description: "About the member.", example: "Collector of B-sides." },
    avatar_key: {
      schema: z.string().min(1).max(300),
      nullable: true,
      description:
        "Key of a completed upload of this member with purpose avatar (POST /uploads); any other key is refused. Setting a new key needs the Pro plan (403 plan_required).",
      example: null,
      uploadPurpose: "avatar",
    },
    timezone: timezoneField,
    attachment_consent: {
      schema: z.enum(["everyone", "following", "nobody"]),
      default: "following",
      description: "Who may send this member attachments: everyone, members this member follows, or nobody.",
      example: "following",
    },
    plan: {
      schema: z.enum(["free", "pro"]),
      readOnly: true,
      description: "free or pro; changed only by an operator.",
      example: "free",
    },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  // A member's connected apps are about their account, as the profile is: their events need profile:read.
  events: ["profile.updated", ...Object.keys(CONNECTED_APP_EVENTS)],
  eventSource: { audience: ["id"], related: CONNECTED_APP_EVENTS },
  rules: [
    "handle is unique ignoring case: a taken handle is 409 conflict.",
    "plan is read-only (422); an operator changes it with: npm run --silent cli -- member plan --email E --plan pro.",
    "An unknown timezone is 422 with the store's reason.",
  ],
});
