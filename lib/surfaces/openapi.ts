import { capabilities, MAX_PAGE_SIZE } from "../../registry/capabilities.ts";
import { IDEMPOTENCY, LIMIT_HEADERS } from "../../registry/limits.ts";
import { resources } from "../../registry/index.ts";
import { MEMBER_DATA_IN_PROSE } from "../../registry/resource-prose.ts";
import { agentPaths, agentSchemas } from "./openapi-agent.ts";
import { toolOnlyTag } from "./openapi-guide.ts";
import { documentDescription, tagDescription } from "./openapi-info.ts";
import { operationObject, untickedExample } from "./openapi-operations.ts";
import { buildSchemas } from "./openapi-schemas.ts";
import { referenceSchemas, withoutRedundantPatterns } from "./openapi-json.ts";
import { toolCatalog } from "./tools.ts";
import { webhooksObject } from "./openapi-webhooks.ts";
import { describeScope, SCOPES } from "../../registry/scopes.ts";

type Json = Record<string, unknown>;

const HEADERS: Json = {
  RequestId: { description: "Identifies this request in logs and in problem bodies.", schema: { type: "string" } },
  RateLimit: {
    description:
      'Available quota now, per policy: "token";r=<left>;t=<seconds until one more> (draft-ietf-httpapi-ratelimit-headers).',
    schema: { type: "string" },
    example: '"token";r=29;t=1',
  },
  RateLimitPolicy: {
    description: 'The policies that apply: "token";q=<quota>;w=<window seconds>.',
    schema: { type: "string" },
    example: '"token";q=30;w=15',
  },
  RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
  Link: {
    description: 'The next page: <…?after=…>; rel="next" (RFC 8288). Absent on the last page.',
    schema: { type: "string" },
  },
  IdempotentReplayed: {
    description: "true when this is the stored answer to an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
  AcceptEncoding: {
    description:
      "On a 415 for a body's Content-Encoding: the codings the server reads (RFC 9110 §12.5.3). Only identity: send bodies unencoded.",
    schema: { type: "string", enum: ["identity"] },
  },
  WWWAuthenticate: {
    description: "The Bearer challenge; on 403 it names the missing scope.",
    schema: { type: "string" },
  },
};

const PARAMETERS: Json = {
  After: {
    name: "after",
    in: "query",
    required: false,
    description: "Cursor from next_cursor of the previous page.",
    schema: { type: "string", minLength: 1, maxLength: 500 },
  },
  Limit: {
    name: "limit",
    in: "query",
    required: false,
    description: `Page size, 1–${MAX_PAGE_SIZE}, default 50.`,
    schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 },
    ...untickedExample({ default: 50 }),
  },
  IdempotencyKey: {
    name: LIMIT_HEADERS.idempotencyKey,
    in: "header",
    required: false,
    description: `Makes a create safe to retry: the same key and payload within ${IDEMPOTENCY.windowSeconds / 3600} h replay the first answer.`,
    schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength },
    example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
  },
};

/** The tag of a capability: its resource, else the first segment of its path. */
function tagOf(path: string, resourceName?: string): string {
  return resourceName ?? path.split("/").filter(Boolean)[0] ?? "service";
}

let cached: Json | undefined;

/** The OpenAPI 3.1 document: every capability with a REST route, plus the tools and directives. */
export function buildOpenApiDocument(): Json {
  if (cached) return cached;
  const catalog = buildSchemas();
  const paths: Record<string, Json> = {};
  const extraTags = new Map<string, string>();
  for (const capability of capabilities) {
    if (!capability.http) continue;
    const source = capability.source;
    const tag = tagOf(capability.http.path, source.kind === "resource" ? source.resource.name : undefined);
    if (source.kind === "operation" && !resources.some((r) => r.name === tag)) {
      extraTags.set(tag, `${source.operation.summary}. ${source.operation.description}`);
    }
    const item = paths[capability.http.path] ?? {};
    item[capability.http.method.toLowerCase()] = operationObject(capability, catalog, tag);
    paths[capability.http.path] = item;
  }
  const directiveSchemas = Object.fromEntries(
    Object.entries(catalog.directiveRefs).map(([type, ref]) => [type, catalog.lookup(String(ref.$ref))]),
  );
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Personal Data Service API",
      version: "1.0.0",
      summary: `One member's ${MEMBER_DATA_IN_PROSE}.`,
      description: documentDescription(),
      license: { name: "Proprietary", url: "https://example.org/license" },
    },
    servers: [{ url: "/api/v1", description: "This service (relative to the site URL)." }],
    security: [{ bearer: [] }, { oauth: [] }],
    tags: [
      ...resources.map((resource) => ({ name: resource.name, description: tagDescription(resource) })),
      ...[...extraTags].map(([name, description]) => ({ name, description })),
      { name: "assistant", description: "The tool catalog and invoke (served under /api/agent)." },
      ...capabilities.filter((capability) => !capability.http).map(toolOnlyTag),
      {
        name: "service",
        description: "Public routes that are not capabilities: the base path's index, health and this document.",
      },
    ],
    paths: { ...paths, ...agentPaths() },
    webhooks: webhooksObject(catalog),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pds_ personal access token",
          description: `Personal access token. Scopes: ${SCOPES.join(", ")}. Each operation lists the scope it needs.`,
        },
        oauth: {
          type: "oauth2",
          description:
            "OAuth 2.1 authorization code with PKCE (S256) for apps and assistants acting for a member (docs/decisions/0020-oauth.md, /docs/connect). Send `resource=<site>/api/v1` (RFC 8707): the token is accepted on that API only. Discovery: /.well-known/oauth-protected-resource/api/v1 and /.well-known/oauth-authorization-server; dynamic registration at /oauth/register, or an https client_id naming a client metadata document.",
          flows: {
            authorizationCode: {
              authorizationUrl: "/oauth/authorize",
              tokenUrl: "/oauth/token",
              refreshUrl: "/oauth/token",
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, describeScope(scope)])),
            },
          },
        },
      },
      schemas: { ...catalog.schemas, ...agentSchemas(catalog.directiveRefs) },
      parameters: PARAMETERS,
      headers: HEADERS,
    },
    "x-tools": withoutRedundantPatterns(toolCatalog(SCOPES, "pds")),
    "x-directives": directiveSchemas,
    "x-mcp": { url: "/api/mcp", transport: "streamable-http", stateless: true, tools: "the same as x-tools" },
  };
  // Touch every tool's schemas once so a broken registry entry fails here, not on first use.
  for (const capability of capabilities) referenceSchemas(capability);
  return cached;
}
