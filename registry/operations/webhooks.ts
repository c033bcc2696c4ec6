import { z } from "zod";
import { defineOperation } from "../define.ts";
import { EVENT_TYPES, PING_EVENT, WEBHOOK_LIMITS } from "../events.ts";
import { KEEP_EVENTS_DAYS } from "../limits.ts";
import { pageOf, pageQuery } from "../pagination.ts";
import { recordSchema } from "../resource-schemas.ts";
import { webhookEndpoints } from "../webhook-endpoints.ts";

const endpointId = z.uuid().describe("Identifier of the webhook endpoint.");
const at = (what: string) => z.iso.datetime({ offset: true }).nullable().describe(what);

export const webhookDelivery = z
  .object({
    id: z.uuid().describe("Identifier of the delivery."),
    endpoint_id: z.uuid().describe("The endpoint it goes to."),
    event_id: z.uuid().describe("The event (the payload's id and the webhook-id header)."),
    event_type: z.enum([...EVENT_TYPES, PING_EVENT]).describe("The event kind."),
    status: z
      .enum(["pending", "delivered", "failed"])
      .describe("pending until a 2xx answer (delivered) or the last retry (failed)."),
    attempts: z.int().min(0).describe("Attempts made so far."),
    last_status_code: z.int().nullable().describe("HTTP status of the last attempt; null when it got no answer."),
    last_error: z.string().nullable().describe("Why the last attempt failed, when it did."),
    next_attempt_at: at("When the next attempt is due; null once delivered or failed."),
    last_attempt_at: at("When the last attempt started."),
    delivered_at: at("When a 2xx answer arrived."),
    duration_ms: z.int().nullable().describe("How long the last attempt took."),
    created_at: z.iso.datetime({ offset: true }).describe("When the event committed."),
  })
  .describe("One event's delivery to one endpoint.");

const endpoint = recordSchema(webhookEndpoints);
const endpointNotFound = [
  { status: 404, code: "not_found", when: "The endpoint does not exist or is not the member's." },
] as const;

export const webhookEndpointsRotateSecret = defineOperation({
  name: "webhook_endpoints_rotate_secret",
  summary: "Rotate a webhook endpoint's secret",
  description: `Make a new signing secret and answer the endpoint with it (shown this once). The old secret stays valid for ${WEBHOOK_LIMITS.previousSecretHours} h: deliveries carry a signature with each.`,
  method: "POST",
  path: "/webhook-endpoints/{id}/rotate-secret",
  scope: "webhooks:write",
  pathParams: ["id"],
  input: z.strictObject({ id: endpointId }),
  output: endpoint,
  errors: endpointNotFound,
});

export const webhookEndpointsPing = defineOperation({
  name: "webhook_endpoints_ping",
  summary: "Send a test event",
  description: `Queue a ${PING_EVENT} event to this endpoint alone (also when disabled) and answer its delivery; follow it in the delivery log.`,
  method: "POST",
  path: "/webhook-endpoints/{id}/ping",
  scope: "webhooks:write",
  pathParams: ["id"],
  input: z.strictObject({ id: endpointId }),
  output: webhookDelivery,
  errors: endpointNotFound,
});

export const webhookEndpointsDeliveriesList = defineOperation({
  name: "webhook_endpoints_deliveries_list",
  summary: "List a webhook endpoint's deliveries",
  description: `The delivery log of one endpoint, newest first, one page at a time (kept ${WEBHOOK_LIMITS.keepDeliveriesDays} days).`,
  method: "GET",
  path: "/webhook-endpoints/{id}/deliveries",
  scope: "webhooks:read",
  pathParams: ["id"],
  input: z.strictObject({
    id: endpointId,
    status: z.enum(["pending", "delivered", "failed"]).optional().describe("Only deliveries in this state."),
    ...pageQuery,
  }),
  output: pageOf(webhookDelivery),
  errors: endpointNotFound,
});

export const webhookEndpointsDeliveriesRetry = defineOperation({
  name: "webhook_endpoints_deliveries_retry",
  summary: "Redeliver an event",
  description:
    "Send one delivery again now, with a fresh retry schedule, whatever its state; the event keeps its id, so receivers can deduplicate.",
  method: "POST",
  path: "/webhook-endpoints/{id}/deliveries/{delivery_id}/retry",
  scope: "webhooks:write",
  pathParams: ["id", "delivery_id"],
  input: z.strictObject({ id: endpointId, delivery_id: z.uuid().describe("Identifier of the delivery.") }),
  output: webhookDelivery,
  errors: [{ status: 404, code: "not_found", when: "The endpoint or delivery does not exist or is not the member's." }],
});

export const webhookEndpointsRedeliver = defineOperation({
  name: "webhook_endpoints_redeliver",
  summary: "Redeliver every event since a time",
  description: `Queue again, in log order, every kept event since a time that this endpoint subscribes to (events are kept ${KEEP_EVENTS_DAYS} days), for a receiver that was down or lost what it got. Each keeps its id: receivers deduplicate on it, and order a record's updates by sequence.`,
  method: "POST",
  path: "/webhook-endpoints/{id}/redeliver",
  scope: "webhooks:write",
  pathParams: ["id"],
  input: z.strictObject({
    id: endpointId,
    since: z.iso
      .datetime({ offset: true })
      .describe(
        `Redeliver events created at or after this time (RFC 3339); earlier than ${KEEP_EVENTS_DAYS} days ago means all kept.`,
      ),
  }),
  output: z
    .object({
      endpoint_id: z.uuid().describe("The endpoint."),
      since: z.iso
        .datetime({ offset: true })
        .describe(`The time used: the one asked, or ${KEEP_EVENTS_DAYS} days ago when it was earlier.`),
      queued: z.int().min(0).describe("Deliveries queued; follow them in the delivery log."),
    })
    .describe("What was queued."),
  rules: [
    "Every event of the member since then whose kind the endpoint subscribes to, also events from before the endpoint existed; a disabled endpoint gets them once enabled again.",
    "Safe to repeat: an event already waiting to be delivered to this endpoint is not queued twice (queued counts only new deliveries); once delivered, asking again sends it again.",
  ],
  errors: endpointNotFound,
});
