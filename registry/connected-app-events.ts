import { z } from "zod";
import type { RelatedEvent } from "./define.ts";
import { SCOPES } from "./scopes.ts";

/**
 * The events of a member's connected apps (OAuth grants, app_private.oauth_grants; docs/decisions/0020-oauth.md).
 * A grant holds no secret (its codes and tokens are other rows, stored only as hashes), and the payload
 * carries only the columns below: never a token, a hash, or the redirect URI.
 */
const grantFields = {
  id: z.uuid().describe("Identifier of the grant (one approval; Connected apps lists and revokes it)."),
  client_id: z
    .string()
    .describe("The app's OAuth client_id: a registered client's id, or the https URL of its metadata document."),
  client_name: z.string().describe("The app's name as the consent page showed it."),
  resource: z.url().describe("The resource the grant is bound to (its tokens work only there): MCP, REST or agent."),
  scopes: z.array(z.enum(SCOPES)).describe("The scopes the member approved."),
  limits: z
    .object({
      collections: z.array(z.uuid()).optional().describe("Only these collections (and their items) exist for the app."),
      readOnly: z.boolean().optional().describe("Every write is refused."),
      confirmDestructive: z.boolean().optional().describe("A delete waits for the member's confirmation."),
      tools: z.array(z.string()).optional().describe("Only these tools may be called."),
    })
    .describe("Limits beyond the scopes, as on a personal access token; {} when none."),
  created_at: z.iso.datetime({ offset: true }).describe("When the member approved (RFC 3339)."),
};

export const REVOKED_REASONS = {
  member: "the member revoked it (Connected apps)",
  client: "the app revoked its refresh token (RFC 7009)",
  refresh_token_reuse: "a refresh token was presented after it had been rotated, so the whole grant was ended",
  code_reuse: "an authorization code was presented a second time, so the whole grant was ended",
} as const;

const reasons = Object.entries(REVOKED_REASONS)
  .map(([reason, meaning]) => `${reason}: ${meaning}`)
  .join("; ");

const page = "/settings/connected-apps";
const audience = ["member_id"] as const;

export const CONNECTED_APP_EVENTS: Readonly<Record<string, RelatedEvent>> = {
  "connected_app.created": {
    table: "app_private.oauth_grants",
    on: "insert",
    audience,
    page,
    description:
      "The member approved an app on the consent page (OAuth): data is the new grant. Each approval is a grant of its own. Needs profile:read in the event log.",
    data: z.object(grantFields).describe("A connected app (OAuth grant)."),
  },
  "connected_app.revoked": {
    table: "app_private.oauth_grants",
    on: "update",
    // Only the change that ends the grant (its last-use stamp is not an event).
    when: "old.revoked_at is null and new.revoked_at is not null",
    audience,
    page,
    description:
      "A connected app's grant ended, and every token it issued with it: data is the grant with when and why. Account deletion removes grants without this event: the member's endpoints and event log go in the same transaction, so nobody is left to receive it. Needs profile:read in the event log.",
    data: z
      .object({
        ...grantFields,
        revoked_at: z.iso.datetime({ offset: true }).describe("When the grant ended (RFC 3339)."),
        revoked_reason: z
          .enum(Object.keys(REVOKED_REASONS) as [keyof typeof REVOKED_REASONS])
          .nullable()
          .describe(`Why: ${reasons}. null only for grants revoked before reasons were recorded.`),
      })
      .describe("A connected app (OAuth grant) that ended."),
  },
};
