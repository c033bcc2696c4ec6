import { z } from "zod";
import { defineResource } from "../define.ts";
import { COLLECTION_TYPES } from "../domains.ts";
import { updatedAtField } from "../fields.ts";

export const collectionTypes = defineResource({
  name: "collection-types",
  toolPrefix: "collection_types",
  singular: "collection type",
  description: "Which of the six collection types the member has switched on. All six are always listed.",
  table: "public.collection_types",
  scope: "collections",
  verbs: ["list", "update"],
  singleton: true,
  fields: {
    type: {
      schema: z.enum(COLLECTION_TYPES),
      readOnly: true,
      description: "One of music, film, books, articles, places, products.",
      example: "music",
    },
    enabled: {
      schema: z.boolean(),
      description: "Whether new collections of this type may be created.",
      example: true,
    },
    updated_at: updatedAtField,
  },
  updateAnswersList: true,
  updateInput: z.strictObject(
    Object.fromEntries(
      COLLECTION_TYPES.map((type) => [
        type,
        z.boolean().optional().describe(`Switch ${type} on (true) or off (false).`),
      ]),
    ),
  ),
  verbNotes: {
    update:
      'PATCH /collection-types with a map of type to boolean, e.g. {"music": false, "film": true}. Answers the full list of six.',
  },
  events: ["collection_type.updated"],
  rules: [
    "The list takes limit and after like every list; the default page (50) holds all six, in a fixed order.",
    "Switching a type off keeps existing collections of that type (still readable and editable).",
    'Creating a collection of a switched-off type, or moving one to it, is 403 write_refused with the reason: collection type "music" is switched off for this member.',
  ],
});
