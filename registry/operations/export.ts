import { z } from "zod";
import { defineOperation } from "../define.ts";
import { memberColumns } from "../events.ts";
import { memberResources } from "../member-resources.ts";
import { exportDocumentInProse } from "../resource-prose.ts";
import { webhookEndpoints } from "../webhook-endpoints.ts";
import { READ_ONLY_SCOPES, SCOPES } from "../scopes.ts";
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
  media: z
    .array(mediaEntry)
    .describe("Completed uploads with signed download links; the bytes are not in the archive."),
  omitted: z
    .array(
      z.object({
        file: z.string(),
        resource: z.string(),
        scope: z.enum(SCOPES).describe("The read scope that would include it."),
        purpose: z.enum(UPLOAD_PURPOSES).optional().describe("For uploads: the purpose of the uploads left out."),
      }),
    )
    .describe("What the token's scopes left out, each part with the read scope it needs; empty when nothing was."),
});

export const exportData = defineOperation({
  name: "export",
  summary: "Export what the member owns",
  description:
    "Every record the member owns that the token's read scopes allow, one JSON document per resource, plus " +
    "manifest.json listing uploaded media with signed download links and what the scopes left out. REST answers " +
    "a ZIP archive (application/zip, streamed); invoke and MCP answer the same documents as one JSON object.",
  method: "GET",
  path: "/export",
  scope: "profile:read",
  // Every read scope adds its sections (registry/export-sections.ts; a test keeps the two equal).
  answersByScope: READ_ONLY_SCOPES,
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
    "Exports what the token's read scopes allow: each document needs the read scope of its resource, uploads the read scope of their purpose (the reference's Export section lists every part and its scope). manifest.json lists in omitted each part left out with the scope it needs: a token with the sixteen scopes of the spec gets everything but webhook-endpoints.json, and says so.",
    "A token with no read scope at all gets 403 insufficient_scope naming the read scopes: an export of nothing is refused rather than answered empty. Write scopes add nothing.",
    "Rows are read under row-level security as the member: nothing of other members is included, except the other side's id on messages and follows.",
    `Documents: ${[...memberResources, webhookEndpoints].map((resource) => exportDocumentInProse(resource, memberColumns(resource))).join(", ")}, tokens (metadata, never secrets or hashes), uploads.`,
    `Media links are valid for ${EXPORT_LINK_LIFETIME_SECONDS / 3600} hours; only completed uploads are listed.`,
  ],
});
