import { z } from "zod";
import { defineResource } from "./define.ts";
import { EVENT_TYPES, WEBHOOK_LIMITS } from "./events.ts";
import { KEEP_EVENTS_DAYS } from "./limits.ts";
import { createdAtField, idField, ownerField, updatedAtField } from "./fields.ts";
import { OUTBOUND_ADDRESS_RULE } from "./outbound-addresses.ts";

export const webhookEndpoints = defineResource({
  name: "webhook-endpoints",
  toolPrefix: "webhook_endpoints",
  singular: "webhook endpoint",
  description:
    "A URL that receives the member's events as signed POST requests (Standard Webhooks), at least once, with retries.",
  table: "public.webhook_endpoints",
  scope: "webhooks",
  verbs: ["list", "get", "create", "update", "delete"],
  fields: {
    id: idField("webhook endpoint"),
    owner_id: ownerField("webhook endpoint"),
    url: {
      schema: z.url().max(2000),
      required: true,
      description:
        "Where events are POSTed. https only (plain http to a loopback host only when the service runs with WEBHOOKS_ALLOW_HTTP). Private, loopback and link-local addresses are refused at every attempt.",
      example: "https://example.com/hooks/pds",
    },
    events: {
      schema: z
        .array(z.enum(["*", ...EVENT_TYPES]))
        .min(1)
        .max(100),
      required: true,
      description: 'Event kinds to receive, or ["*"] for every kind (see the webhooks section of the reference).',
      example: ["item.created", "item.updated"],
    },
    enabled: {
      schema: z.boolean(),
      default: true,
      description: `Whether events are sent. Set to false by the service after ${WEBHOOK_LIMITS.disableAfterFailingDays} days of failed deliveries (see disabled_reason); setting it to true again clears that.`,
      example: true,
    },
    description: {
      schema: z.string().max(500),
      default: "",
      description: "Free text.",
      example: "Sync to my notes app",
    },
    secret: {
      schema: z.string(),
      readOnly: true,
      nullable: true,
      shownOnce: true,
      description:
        "The signing secret (whsec_ + base64). Answered only by create and rotate-secret, null everywhere else (an idempotent replay included): keep it when you see it.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    },
    failing_since: {
      schema: z.iso.datetime({ offset: true }),
      readOnly: true,
      nullable: true,
      description: "Since when every delivery has failed; null while deliveries succeed.",
      example: null,
    },
    disabled_reason: {
      schema: z.string(),
      readOnly: true,
      nullable: true,
      description: "Why the service disabled the endpoint; null unless it did.",
      example: null,
    },
    created_at: createdAtField,
    updated_at: updatedAtField,
  },
  list: { rows: "own", column: "owner_id" },
  verbNotes: {
    create: `Create a webhook endpoint; the answer carries its signing secret, the only time it is shown. At most ${WEBHOOK_LIMITS.maxEndpointsPerMember} per member. Accepts Idempotency-Key (a replay answers secret: null).`,
  },
  activityWithoutImage: true,
  rules: [
    `At most ${WEBHOOK_LIMITS.maxEndpointsPerMember} endpoints per member (403 write_refused beyond that).`,
    'Every delivery is a POST of {id, type, created_at, sequence, data} (sequence: the record\'s sequence number, to order updates that arrive out of order) signed twice: X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature. The HMAC key is the base64-decoded part of the secret after whsec_.',
    `A 2xx answer within ${WEBHOOK_LIMITS.timeoutSeconds} s is delivered; anything else (redirects included: they are not followed) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery is failed.`,
    `An endpoint whose deliveries have failed for ${WEBHOOK_LIMITS.disableAfterFailingDays} days is disabled (enabled false, disabled_reason set).`,
    `Payloads over ${WEBHOOK_LIMITS.maxPayloadBytes / 1024} KB carry data: {id, url} instead of the record; answers are read up to ${WEBHOOK_LIMITS.maxResponseBytes / 1024} KB. Deliveries are kept ${WEBHOOK_LIMITS.keepDeliveriesDays} days.`,
    `Every event is kept ${KEEP_EVENTS_DAYS} days, whether or not an endpoint wanted it: GET /events pulls them in order, and POST /webhook-endpoints/{id}/redeliver sends an endpoint everything since a time again.`,
    "An event reaches only endpoints of members who can read the record (messages: sender and recipient; follows: both sides).",
    `Saving an endpoint refuses a URL whose host is a refused address written literally, or a local name; a name is judged when each delivery connects, since what it resolves to can change. ${OUTBOUND_ADDRESS_RULE}`,
  ],
});
