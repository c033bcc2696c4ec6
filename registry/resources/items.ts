import { z } from "zod";
import { defineResource } from "../define.ts";
import { createdAtField, idField, ownerField, updatedAtField } from "../fields.ts";

export const items = defineResource({
  name: "items",
  toolPrefix: "items",
  singular: "item",
  description:
    "One favorite inside a collection: a catalog entry (song_id, from /resolve or /search) with the owner's own overrides.",
  table: "public.items",
  scope: "items",
  verbs: ["list", "get", "create", "update", "delete"],
  fields: {
    id: idField("item"),
    owner_id: ownerField("item"),
    collection_id: {
      schema: z.uuid(),
      required: true,
      description: "The collection it sits in; must be one of the token member's own collections.",
      references: { resource: "collections" },
      example: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
    },
    song_id: {
      schema: z.uuid(),
      required: true,
      description: "The catalog entry id returned by /resolve or /search (for every domain, not only music).",
      references: "catalog-entry",
      example: "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
    },
    title: {
      schema: z.string().trim().min(1).max(500),
      nullable: true,
      description: "Override of the catalog title; null shows the catalog's.",
      example: "My favourite version",
    },
    note: { schema: z.string().max(5000), default: "", description: "The owner's note.", example: "Heard it live." },
    rating: {
      schema: z.int().min(1).max(5),
      nullable: true,
      description: "The owner's rating, 1 to 5.",
      example: 5,
    },
    position: {
      schema: z.int().min(0).max(1_000_000),
      default: 0,
      description: "Sort position inside the collection, chosen by the owner.",
      example: 3,
    },
    tags: {
      schema: z.array(z.string().trim().min(1).max(50)).max(20),
      default: [],
      description: "Up to 20 tags.",
      example: ["summer", "live"],
    },
    artwork_key: {
      schema: z.string().min(1).max(300),
      nullable: true,
      description:
        "Override of the catalog artwork: key of a completed upload of the owner with purpose artwork (POST /uploads); null shows the catalog's.",
      example: null,
      uploadPurpose: "artwork",
    },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "own", column: "owner_id" },
  confirmDeleteSql: {
    label: "coalesce(t.title, (select ce.title from public.catalog_entries ce where ce.id = t.song_id))",
    context: "'in ' || (select c.name from public.collections c where c.id = t.collection_id)",
  },
  filters: {
    collection_id: {
      schema: z.uuid(),
      sql: { kind: "instead", column: "collection_id" },
      description:
        "List the items of one collection (any collection the member can read). Without it, the member's own items.",
    },
  },
  events: ["item.created", "item.updated", "item.deleted"],
  rules: ["An item is visible exactly when its collection is."],
});
