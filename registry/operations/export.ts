import { z } from "zod";
import { defineOperation } from "../define.ts";
import { READ_ONLY_SCOPES } from "../scopes.ts";
import { UPLOAD_PURPOSES } from "./uploads.ts";

/** How long the media download links of an export stay valid. */
export const EXPORT_LINK_LIFETIME_SECONDS = 24 * 3600;

const mediaEntry = z.object({
  key: z.string().describe("The upload's key, <purpose>/<uuid>."),
  purpose: z.enum(UPLOAD_PURPOSES),
  content_type: z.string(),
  size: z.number().int(),
  created_at: z.string(),
  url: z.string().describe("Signed download link (GET), valid until url_expires_at."),
  url_expires_at: z.string(),
});

export const exportManifestSchema = z.object({
  format: z.literal("pds-export/1"),
  exported_at: z.string(),
  member_id: z.uuid(),
  documents: z
    .array(z.object({ file: z.string(), resource: z.string(), count: z.number().int() }))
    .describe("One JSON document per resource, with how many records it holds."),
  media: z.array(mediaEntry).describe("Completed uploads with signed download links; the bytes are not in the archive."),
});

export const exportData = defineOperation({
  name: "export",
  summary: "Export everything the member owns",
  description:
    "Every record the member owns, one JSON document per resource, plus manifest.json listing uploaded media " +
    "with signed download links. REST answers a ZIP archive (application/zip, streamed); invoke and MCP answer " +
    "the same documents as one JSON object.",
  method: "GET",
  path: "/export",
  scope: "profile:read",
  requiresAll: READ_ONLY_SCOPES,
  input: z.strictObject({}),
  output: z.object({
    files: z
      .record(z.string(), z.unknown())
      .describe("File name → document: manifest.json, profile.json, collections.json, items.json, …"),
  }),
  restBody: {
    contentType: "application/zip",
    description: "A ZIP archive: manifest.json plus one JSON document per resource (the `files` of the JSON answer).",
  },
  rules: [
    "Needs every read scope (the token must hold every :read scope); a token missing one gets 403 insufficient_scope naming them.",
    "Rows are read under row-level security as the member: nothing of other members is included, except the other side's id on messages and follows.",
    "Documents: profile, collection-types, collections, items, todos, goals, streaks (with check_ins), messages (sent and received), follows (following and followers), channels (owned), webhook-endpoints (never their signing secrets), tokens (metadata, never secrets or hashes), uploads.",
    `Media links are valid for ${EXPORT_LINK_LIFETIME_SECONDS / 3600} hours; only completed uploads are listed.`,
  ],
});
