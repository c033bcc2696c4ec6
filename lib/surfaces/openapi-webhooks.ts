import { EVENT_KINDS, eventPayloadSchema, PING_EVENT, pingData, WEBHOOK_LIMITS } from "../../registry/events.ts";
import { webhookEndpoints } from "../../registry/webhook-endpoints.ts";
import { toJson } from "./openapi-json.ts";
import type { SchemaCatalog } from "./openapi-schemas.ts";
import type { JsonSchema } from "./tools-json-schema.ts";

const header = (name: string, description: string, example: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
  example,
});

const HEADERS = [
  header(
    "webhook-id",
    "The event id (Standard Webhooks); the same on every retry.",
    "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
  ),
  header("webhook-timestamp", "Unix seconds when this attempt was signed.", "1763900000"),
  header(
    "webhook-signature",
    'Space-separated v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, one per valid secret (two for 24 h after a rotation). Verify with any Standard Webhooks library.',
    "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  ),
  header(
    "X-Service-Signature",
    't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> (one v1 per valid secret). The key is the base64-decoded part of the secret after whsec_.',
    "t=1763900000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
  ),
];

/** The `webhooks` object of OpenAPI 3.1: one POST per event kind, with its payload schema. */
export function webhooksObject(catalog: SchemaCatalog): Record<string, JsonSchema> {
  const entries = [
    ...EVENT_KINDS.map((kind) => ({ type: kind.type, description: kind.description, data: kind.data })),
    { type: PING_EVENT, description: "A test event sent by POST /webhook-endpoints/{id}/ping.", data: pingData },
  ];
  return Object.fromEntries(
    entries.map(({ type, description, data }) => {
      const schema = toJson(eventPayloadSchema(type, data), "output");
      const properties = schema.properties as Record<string, JsonSchema>;
      if (properties.data) properties.data = catalog.named(properties.data);
      return [
        type,
        {
          post: {
            operationId: `webhook_${type.replace(/\./g, "_")}`,
            summary: type,
            description: `${description} ${webhookEndpoints.rules?.[1] ?? ""}`.trim(),
            tags: ["webhook-endpoints"],
            parameters: HEADERS,
            requestBody: { required: true, content: { "application/json": { schema } } },
            responses: {
              "200": {
                description: `Any 2xx within ${WEBHOOK_LIMITS.timeoutSeconds} s acknowledges the event; anything else is retried.`,
              },
            },
          },
        },
      ];
    }),
  );
}
