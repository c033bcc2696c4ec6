import { z } from "zod";
import { defineOperation } from "../define.ts";
import { catalogEntrySchema, songIdSchema } from "./catalog-entry.ts";

export const catalogGet = defineOperation({
  name: "catalog_get",
  summary: "Read a catalog entry",
  description:
    "One catalog entry by its song_id, as /resolve answers it (without resolution): how a client learns that a " +
    "partial entry was completed in the background, or where an entry merged into another went.",
  method: "GET",
  path: "/catalog/{song_id}",
  scope: "items:read",
  pathParams: ["song_id"],
  input: z.strictObject({ song_id: songIdSchema }),
  output: catalogEntrySchema.extend({
    merged_from: z
      .uuid()
      .nullable()
      .describe(
        "The song_id asked for, when that entry was merged into this one (the same work found twice); else null.",
      ),
  }),
  rules: [
    "Completion: a resolve that ran out of a provider's request budget or of its deadline answers partial: true and queues the entry; the background worker asks the providers again (with backoff) and fills it in under the same song_id. Poll this operation until partial is false (or resolve the link again); items that point at the entry show the completed entry at once.",
    "One entry per work: when providers reveal that two entries are the same work (an id of one is found on the other), they are merged. The complete entry survives over a partial one, then the older; it keeps its facts and gains the others' ids, links and missing fields. Every item that pointed at the merged entry points at the survivor (each owner gets an item.updated webhook event), and this operation answers the survivor for the merged id, with merged_from set.",
  ],
  errors: [
    { status: 404, code: "not_found", when: "No catalog entry has this id, and none was merged away under it." },
  ],
});
