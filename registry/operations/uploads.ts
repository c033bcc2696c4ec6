import { z } from "zod";
import { defineOperation, type UploadPurpose } from "../define.ts";
import type { Scope } from "../scopes.ts";

export const UPLOAD_PURPOSES = ["avatar", "attachment", "artwork"] as const satisfies readonly UploadPurpose[];

/** An upload takes the write scope of what it is for (design §6). */
export const UPLOAD_SCOPES: Readonly<Record<UploadPurpose, Scope>> = {
  avatar: "profile:write",
  attachment: "messages:write",
  artwork: "items:write",
};

/** How long a minted URL accepts its one PUT. */
export const UPLOAD_URL_LIFETIME_SECONDS = 600;

const MiB = 1024 * 1024;

export interface UploadKind {
  label: string;
  types: readonly string[];
  maxBytes: number;
}

const IMAGES: UploadKind = {
  label: "images",
  types: ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"],
  maxBytes: 10 * MiB,
};
const AUDIO: UploadKind = {
  label: "audio",
  types: ["audio/mpeg", "audio/mp4", "audio/aac", "audio/ogg", "audio/wav", "audio/flac", "audio/webm"],
  maxBytes: 50 * MiB,
};
const DOCUMENTS: UploadKind = { label: "PDF documents", types: ["application/pdf"], maxBytes: 20 * MiB };

/** What each purpose accepts: content types and the largest size for each. */
export const UPLOAD_KINDS: Readonly<Record<UploadPurpose, readonly UploadKind[]>> = {
  avatar: [IMAGES],
  artwork: [IMAGES],
  attachment: [IMAGES, AUDIO, DOCUMENTS],
};

/** The largest size allowed for this purpose and content type; undefined when the type is not accepted. */
export function maxUploadBytes(purpose: UploadPurpose, contentType: string): number | undefined {
  return UPLOAD_KINDS[purpose].find((kind) => kind.types.includes(contentType))?.maxBytes;
}

const MAX_ANY = Math.max(...Object.values(UPLOAD_KINDS).flatMap((kinds) => kinds.map((kind) => kind.maxBytes)));

const describeKinds = (purpose: UploadPurpose) =>
  `${purpose}: ${UPLOAD_KINDS[purpose].map((k) => `${k.label} (${k.types.join(", ")}) up to ${k.maxBytes / MiB} MiB`).join("; ")}`;

const input = z
  .strictObject({
    purpose: z
      .enum(UPLOAD_PURPOSES)
      .describe("What the upload is for: avatar (profile), attachment (messages) or artwork (items)."),
    content_type: z
      .string()
      .min(3)
      .max(100)
      .describe("The media type of the bytes; the PUT must send exactly this Content-Type."),
    size: z.int().min(1).max(MAX_ANY).describe("The exact size in bytes; the PUT must send exactly this many."),
  })
  .superRefine((value, ctx) => {
    const max = maxUploadBytes(value.purpose, value.content_type);
    if (max === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["content_type"],
        message: `Not accepted for ${describeKinds(value.purpose)}.`,
      });
    } else if (value.size > max) {
      ctx.addIssue({
        code: "custom",
        path: ["size"],
        message: `${value.content_type} for ${value.purpose} may be at most ${max} bytes.`,
      });
    }
  });

const output = z.object({
  url: z.url().describe("Where to PUT the bytes; valid until expires_at, for one successful PUT."),
  method: z.literal("PUT"),
  headers: z
    .record(z.string(), z.string())
    .describe("Headers the PUT must carry exactly (Content-Type, Content-Length); they are bound into the signature."),
  key: z
    .string()
    .describe("The upload's key: set it as avatar_key, attachment_key or artwork_key once the PUT succeeded."),
  expires_at: z.iso.datetime({ offset: true }).describe("When the URL stops working (10 minutes after minting)."),
});

export const uploads = defineOperation({
  name: "uploads_create",
  summary: "Mint an upload URL",
  description:
    "Mint a short-lived presigned URL (10 minutes, one PUT) for sending media straight to storage; the bytes never pass through the API. Pro plan only. Accepts Idempotency-Key.",
  method: "POST",
  path: "/uploads",
  scope: UPLOAD_SCOPES.avatar,
  scopeBy: { field: "purpose", map: UPLOAD_SCOPES },
  input,
  output,
  creates: true,
  rules: [
    "Needs the write scope of the purpose: avatar → profile:write, attachment → messages:write, artwork → items:write.",
    "Needs the Pro plan of the member the token resolves to, checked by the store (403 plan_required).",
    "The plan is checked again where a key is used: a URL minted on Pro is honoured for its lifetime (its PUT succeeds after a downgrade), but attaching the key to a profile, message or item needs the Pro plan at that moment (403 plan_required). A key attached while on Pro stays; sending it again unchanged or clearing it needs no plan.",
    ...UPLOAD_PURPOSES.map((purpose) => `Accepted — ${describeKinds(purpose)}.`),
    "The URL lives 10 minutes and accepts exactly one PUT with the returned headers; Content-Type and Content-Length are bound into its signature.",
    "The key can be used once its PUT succeeded, only by its owner and only for its purpose: profile avatar_key (avatar), message attachment_key (attachment, subject to the recipient's attachment consent), item artwork_key (artwork). Any other key is refused (403 write_refused).",
    "Storage: local disk by default (a signed route under /storage/upload/, outside /api), or any S3-compatible store when S3_BUCKET is set.",
    "Local storage completes the upload when its PUT succeeds; S3 cannot call back, so the first write that uses the key asks the store (HeadObject) whether the object arrived with the signed type and size.",
  ],
  errors: [
    { status: 403, code: "insufficient_scope", when: "The token lacks the write scope of the purpose." },
    { status: 403, code: "plan_required", when: "The member is not on the Pro plan." },
    {
      status: 422,
      code: "invalid_request",
      when: "Unknown purpose, content type not accepted, or size over the limit.",
    },
  ],
});
