import { z } from "zod";
import { defineResource } from "../define.ts";
import { COLLECTION_TYPES } from "../domains.ts";
import { createdAtField, idField, ownerField, updatedAtField } from "../fields.ts";

export const collections = defineResource({
  name: "collections",
  toolPrefix: "collections",
  singular: "collection",
  description: "A named group of favorites of one collection type. Visibility is public, unlisted or private.",
  table: "public.collections",
  scope: "collections",
  verbs: ["list", "get", "create", "update", "delete"],
  fields: {
    id: idField("collection"),
    owner_id: ownerField("collection"),
    name: {
      schema: z.string().trim().min(1).max(200),
      required: true,
      description: "Display name.",
      example: "Road trip songs",
    },
    description: { schema: z.string().max(2000), default: "", description: "Free text.", example: "For long drives." },
    visibility: {
      schema: z.enum(["public", "unlisted", "private"]),
      default: "private",
      description:
        "private: only the owner. unlisted: any member holding the id can read it, never listed for others. public: also listed through ?owner=.",
      example: "private",
    },
    type: {
      schema: z.enum(COLLECTION_TYPES),
      required: true,
      description: "Which collection type it belongs to; the type must be switched on (see /collection-types).",
      example: "music",
    },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "own", column: "owner_id" },
  confirmDeleteSql: {
    context: `(select case count(*) when 0 then null when 1 then 'with its one item' else 'with its ' || count(*) || ' items' end
      from public.items i where i.collection_id = t.id)`,
  },
  filters: {
    owner: {
      schema: z.uuid(),
      sql: { kind: "instead", column: "owner_id", othersOnly: { column: "visibility", equals: "public" } },
      description:
        "List another member's public collections. Without it, the list shows the token's own collections (all visibilities).",
    },
    type: {
      schema: z.enum(COLLECTION_TYPES),
      description: "Only collections of this type.",
      sql: { kind: "equals", column: "type" },
    },
  },
  events: ["collection.created", "collection.updated", "collection.deleted"],
  credentialChoosesRows: true,
  rules: [
    "Visibility defaults to private; any move between public, unlisted and private is allowed.",
    "Deleting a collection deletes its items.",
    "Creating a collection of a switched-off type is refused (403 write_refused).",
  ],
});
