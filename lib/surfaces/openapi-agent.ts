import { API_INDEX } from "./api-index.ts";
import { untickedExample } from "./openapi-operations.ts";
import { TOOL_FORMATS } from "./tools.ts";

/**
 * The paths of the reference that are not capabilities: the assistant endpoints (served under
 * /api/agent, hence their own servers entry), the base path's index (under /api, so its URL has no
 * trailing slash) and the two public routes beside the REST catch-all.
 * Listed in lib/surfaces/fixed-routes.ts; the parity test takes them as the deliberate non-capability routes.
 */
export { NON_CAPABILITY_PATHS } from "./fixed-routes.ts";

type Json = Record<string, unknown>;
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const problem = (description: string, extra: Json = {}) => ({
  description,
  headers: { "Request-Id": header("RequestId"), ...extra },
  content: { "application/problem+json": { schema: schemaRef("Problem") } },
});

export function agentSchemas(directiveRefs: Record<string, Json>): Record<string, Json> {
  return {
    InvokeRequest: {
      type: "object",
      required: ["tool"],
      additionalProperties: false,
      properties: {
        tool: {
          type: "string",
          pattern: "^[a-zA-Z0-9_-]{1,64}$",
          description: "A tool name from GET /api/agent/tools.",
        },
        input: { type: "object", description: "The tool's arguments, as its inputSchema describes. Default {}." },
        format: {
          type: "string",
          enum: ["openai"],
          description:
            'Set "openai" when the arguments were produced against the OpenAI strict schema: null then means "left out".',
        },
      },
    },
    InvokeResponse: {
      oneOf: [
        {
          type: "object",
          title: "Result",
          required: ["ok", "result"],
          properties: {
            ok: { const: true },
            result: { description: "Exactly the body REST answers for the same call (null for a delete)." },
          },
        },
        {
          type: "object",
          title: "Directive",
          required: ["ok", "directive"],
          properties: {
            ok: { const: true },
            directive: {
              description:
                "A browser tool's directive (200), or confirm_delete for a delete held for the member (202).",
              oneOf: [...Object.values(directiveRefs), schemaRef("ConfirmDeleteDirective")],
            },
          },
        },
        {
          type: "object",
          title: "Error",
          required: ["ok", "error"],
          properties: { ok: { const: false }, error: schemaRef("Problem") },
        },
      ],
    },
    InvokeConfirmDelete: {
      type: "object",
      title: "Held delete",
      required: ["ok", "directive"],
      additionalProperties: false,
      properties: { ok: { const: true }, directive: schemaRef("ConfirmDeleteDirective") },
    },
    ToolCatalog: {
      type: "object",
      required: ["format", "tools"],
      properties: {
        format: { type: "string", enum: [...TOOL_FORMATS] },
        tools: { type: "array", items: { type: "object" }, description: "Tool definitions in the requested format." },
      },
    },
    ApiIndex: {
      type: "object",
      required: Object.keys(API_INDEX),
      properties: Object.fromEntries(
        Object.entries(API_INDEX_FIELDS).map(([name, description]) => [
          name,
          { type: "string", const: API_INDEX[name as keyof typeof API_INDEX], description },
        ]),
      ),
    },
    Health: {
      type: "object",
      required: ["status"],
      properties: {
        status: { type: "string", enum: ["ok", "unavailable"] },
        database: { type: "string" },
        rate_limit_store: { type: "string" },
      },
    },
  };
}

const RATE_HEADERS = { RateLimit: header("RateLimit"), "RateLimit-Policy": header("RateLimitPolicy") };
// Inline, not $ref: each is sent on some refusals only, so a generated client types it optional.
const text = { type: "string" };
const REFUSAL_HEADERS = {
  RateLimit: {
    description:
      "As on success, once the call reached the rate limit (not on 401, a malformed envelope or an unknown tool).",
    schema: text,
  },
  "RateLimit-Policy": { description: "As RateLimit.", schema: text },
  "WWW-Authenticate": {
    description: "On 401, and on 403 naming the missing scope: the Bearer challenge.",
    schema: text,
  },
  "Retry-After": { description: "On 429: seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
};

/** How a held delete completes: the member, in the browser; the caller only reads the outcome. */
const HELD_DELETE =
  "A delete held for the member's confirmation (the credential asks the member to confirm deletes): nothing was deleted, and directive is confirm_delete. Show the member directive.url: signed in, they see the row on Settings → Confirmations and confirm it or keep it. Only when they confirm is the row deleted, as the member, through the same pipeline (its own refusals apply then). No further call completes it: read the row again later to learn the outcome (it is gone once confirmed). Unconfirmed, it lapses at directive.expires_at and nothing is deleted. The same delete over REST answers 403 `confirmation_required`.";

const AGENT_SERVERS = [{ url: "/api/agent", description: "The assistant tool interface, beside the REST base." }];

const API_INDEX_FIELDS: Record<keyof typeof API_INDEX, string> = {
  openapi: "This document.",
  docs: "The reference for people, with the guides.",
  health: "Liveness and readiness.",
  tools: "The tool catalog (needs a token).",
  mcp: "The MCP server (needs a token).",
};

export function agentPaths(): Json {
  return {
    "/v1": {
      servers: [{ url: "/api", description: "The site's API folder: this path is the REST base, /api/v1, itself." }],
      get: {
        operationId: "api_index",
        summary: "Where the API is described",
        description:
          "Public. The REST base path answers where to go next: this document, the docs, health, the tool catalog and MCP; the Link header names the first two as RFC 8631 service-desc and service-doc. Not a capability: no tool.",
        tags: ["service"],
        security: [],
        responses: {
          "200": {
            description: "The index.",
            headers: {
              "Request-Id": header("RequestId"),
              Link: {
                description: 'RFC 8631: <…/openapi.json>; rel="service-desc", </docs>; rel="service-doc".',
                schema: { type: "string" },
              },
            },
            content: { "application/json": { schema: schemaRef("ApiIndex") } },
          },
        },
      },
    },
    "/health": {
      get: {
        operationId: "health",
        summary: "Liveness and readiness",
        description: "Public. 200 when the database answers a query, 503 otherwise. Not a capability: no tool.",
        tags: ["service"],
        security: [],
        responses: {
          "200": { description: "Up.", content: { "application/json": { schema: schemaRef("Health") } } },
          "503": {
            description: "The database is unreachable.",
            content: { "application/json": { schema: schemaRef("Health") } },
          },
        },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "openapi",
        summary: "This document",
        description: "Public. The OpenAPI 3.1 document, generated from the registry. Not a capability: no tool.",
        tags: ["service"],
        security: [],
        responses: {
          "200": { description: "The document.", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
    "/tools": {
      servers: AGENT_SERVERS,
      get: {
        operationId: "agent_tools",
        summary: "The tool catalog",
        description:
          "Every capability the token's scopes allow, as tool definitions, in registry order. format picks the dialect: pds (ours: name, title, description, kind, scope, inputSchema, outputSchema, annotations), openai (Responses API function tools, strict), openai-chat (Chat Completions), anthropic (name, description, input_schema) or mcp (name, title, description, inputSchema, outputSchema, annotations).",
        tags: ["assistant"],
        parameters: [
          {
            name: "format",
            in: "query",
            required: false,
            description: "The dialect of the definitions. Default pds.",
            schema: { type: "string", enum: [...TOOL_FORMATS], default: "pds" },
            ...untickedExample({ default: "pds" }),
          },
        ],
        responses: {
          "200": {
            description: "The catalog.",
            headers: {
              "Request-Id": header("RequestId"),
              RateLimit: header("RateLimit"),
              "RateLimit-Policy": header("RateLimitPolicy"),
            },
            content: { "application/json": { schema: schemaRef("ToolCatalog") } },
          },
          "401": problem("`unauthorized`: no valid token.", { "WWW-Authenticate": header("WWWAuthenticate") }),
          "422": problem(
            "`invalid_request`: unknown format or query parameter, or a parameter sent twice (`duplicate_parameter`).",
          ),
          "429": problem("`rate_limited`: retry after Retry-After seconds.", { "Retry-After": header("RetryAfter") }),
        },
      },
    },
    "/invoke": {
      servers: AGENT_SERVERS,
      post: {
        operationId: "agent_invoke",
        summary: "Run one tool",
        description:
          "Runs the tool through the same pipeline as REST (token, rate limit, scope, validation, Idempotency-Key, member transaction). Answers {ok:true, result} with the status REST gives (a delete answers 200 with result null: a 204 cannot carry the envelope), {ok:true, directive} for browser tools, 202 {ok:true, directive} with a confirm_delete directive when the credential asks the member to confirm deletes (nothing is deleted until the member confirms), or {ok:false, error} with the problem's status. An unknown tool is 404; a tool outside the token's scopes is 403.",
        tags: ["assistant"],
        parameters: [{ $ref: "#/components/parameters/IdempotencyKey" }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: schemaRef("InvokeRequest"),
              example: { tool: "collections_create", input: { name: "Road trip songs", type: "music" } },
            },
          },
        },
        responses: Object.fromEntries(
          [
            ["200", "The tool ran (or answered a directive).", "InvokeResponse", RATE_HEADERS],
            ["201", "The tool created something.", "InvokeResponse", RATE_HEADERS],
            ["202", HELD_DELETE, "InvokeConfirmDelete", RATE_HEADERS],
            ["4XX", "The call was refused; error is the problem REST would answer.", "InvokeResponse", REFUSAL_HEADERS],
            ["5XX", "The service failed; error is the problem (quote its request_id).", "InvokeResponse", {}],
          ].map(([status, description, schema, headers]) => [
            status,
            {
              description,
              headers: { "Request-Id": header("RequestId"), ...(headers as Json) },
              content: { "application/json": { schema: schemaRef(String(schema)) } },
            },
          ]),
        ),
      },
    },
  };
}
