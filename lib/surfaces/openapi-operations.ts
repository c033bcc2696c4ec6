import { acceptedScopes, type Capability, securityRequirements } from "../../registry/capabilities.ts";
import { MAX_BODY_BYTES } from "../../registry/limits.ts";
import { codeSamples } from "./openapi-code-samples.ts";
import { byStatus, errorCases, problemExample } from "./openapi-errors.ts";
import { exampleOf, referenceSchemas } from "./openapi-json.ts";
import { bodySchema, type SchemaCatalog } from "./openapi-schemas.ts";
import type { JsonSchema } from "./tools-json-schema.ts";

/** What every request body must be (lib/http/body.ts enforces it). */
const REQUEST_BODY_RULE = `JSON in UTF-8 (RFC 8259), at most ${MAX_BODY_BYTES} bytes (413): application/json or any +json type (415 otherwise); no charset, or charset=utf-8. Any other charset is 415, not read. Sent unencoded: a Content-Encoding other than identity (gzip, br, …) is 415 with Accept-Encoding: identity, not read.`;

type Json = Record<string, unknown>;
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The success headers every authenticated answer carries. */
const COMMON_HEADERS = {
  "Request-Id": header("RequestId"),
  RateLimit: header("RateLimit"),
  "RateLimit-Policy": header("RateLimitPolicy"),
};

function descriptionOf(capability: Capability): string {
  const source = capability.source;
  const rules = source.kind === "operation" ? (source.operation.rules ?? []) : source.kind === "resource" ? [] : [];
  const note = source.kind === "resource" ? source.resource.verbNotes?.[source.verb] : undefined;
  const lines = [capability.description];
  if (note && note !== capability.description) lines.push(note);
  if (rules.length) lines.push("", ...rules.map((rule) => `- ${rule}`));
  // Scope and tool name are not repeated here: `security`, `x-scopes` and `operationId` carry them.
  return lines.join("\n");
}

/** The name REST uses for an input field: the operation's declared alias (GET /search?q=), else the field's. */
export function restNameOf(capability: Capability, field: string): string {
  if (capability.source.kind !== "operation") return field;
  const { queryAliases } = capability.source.operation as { queryAliases?: Readonly<Record<string, string>> };
  return Object.entries(queryAliases ?? {}).find(([, target]) => target === field)?.[0] ?? field;
}

/**
 * Scalar's "try it" ticks (sends) every parameter it can fill from a default, enum or example, so an
 * optional filter would be sent unasked. An example marked x-disabled shows that value unticked:
 * an optional parameter is sent only when the reader ticks it.
 */
export function untickedExample(schema: JsonSchema): Json {
  const value =
    schema.default ??
    (Array.isArray(schema.enum) ? schema.enum[0] : undefined) ??
    (Array.isArray(schema.examples) ? schema.examples[0] : undefined) ??
    schema.example;
  return value === undefined
    ? {}
    : { examples: { optional: { summary: "Optional: sent only when ticked", value, "x-disabled": true } } };
}

function parameters(capability: Capability, input: JsonSchema): Json[] {
  const http = capability.http;
  if (!http) return [];
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
  const list: Json[] = http.pathParams.map((name) => ({
    name,
    in: "path",
    required: true,
    description: String(properties[name]?.description ?? name),
    schema: properties[name] ?? { type: "string" },
  }));
  if (http.method === "GET" || http.method === "DELETE") {
    for (const [name, schema] of Object.entries(properties)) {
      if (http.pathParams.includes(name)) continue;
      if (name === "after" || name === "limit") {
        list.push({ $ref: `#/components/parameters/${name === "after" ? "After" : "Limit"}` });
        continue;
      }
      const { description, ...rest } = schema;
      const restName = restNameOf(capability, name);
      const text =
        restName === name
          ? String(description ?? name)
          : `${String(description ?? name)} (The tool's argument ${name}.)`;
      list.push({
        name: restName,
        in: "query",
        required: required.has(name),
        description: text,
        schema: rest,
        ...(required.has(name) ? {} : untickedExample(rest)),
      });
    }
  }
  if (capability.creates) list.push({ $ref: "#/components/parameters/IdempotencyKey" });
  return list;
}

function successResponses(capability: Capability, catalog: SchemaCatalog): Json {
  const output = referenceSchemas(capability).output;
  // Anything answering a page (resource lists, search) carries Link: rel="next".
  const isList =
    capability.http?.method === "GET" &&
    typeof (output.properties as Record<string, unknown> | undefined)?.next_cursor === "object";
  const headers: Json = { ...COMMON_HEADERS };
  if (isList) headers.Link = header("Link");
  if (capability.creates) headers["Idempotent-Replayed"] = header("IdempotentReplayed");
  if (capability.successStatus === 204) {
    return { "204": { description: "Done; no body.", headers } };
  }
  const schema = catalog.named(output);
  const restBody = capability.source.kind === "operation" ? capability.source.operation.restBody : undefined;
  const content = restBody
    ? { [restBody.contentType]: { schema: { type: "string", format: "binary", description: restBody.description } } }
    : { "application/json": { schema, example: exampleOf(schema, catalog.lookup) } };
  const responses: Json = {
    [String(capability.successStatus)]: {
      description: capability.creates ? "Created." : isList ? "One page; next_cursor leads to the next." : "OK.",
      headers,
      content,
    },
  };
  // An operation that creates answers 200 when the thing already existed (e.g. a second check-in that day).
  if (capability.creates && capability.source.kind === "operation") {
    responses["200"] = { description: "It already existed; nothing new was made.", headers, content };
  }
  return responses;
}

function errorResponses(capability: Capability): Json {
  const responses: Json = {};
  for (const [status, cases] of byStatus(errorCases(capability))) {
    const extra: Json = {};
    if (status === 401 || status === 403) extra["WWW-Authenticate"] = header("WWWAuthenticate");
    if (status === 429) Object.assign(extra, { "Retry-After": header("RetryAfter"), ...COMMON_HEADERS });
    if (status === 415) extra["Accept-Encoding"] = header("AcceptEncoding");
    responses[String(status)] = {
      description: cases.map((c) => `\`${c.code}\`: ${c.when}`).join(" "),
      headers: { "Request-Id": header("RequestId"), ...extra },
      content: {
        "application/problem+json": {
          schema: { $ref: "#/components/schemas/Problem" },
          examples: Object.fromEntries(
            cases.map((c) => [c.code, { summary: c.when, value: problemExample(c.code, c.when) }]),
          ),
        },
      },
    };
  }
  return responses;
}

export function operationObject(capability: Capability, catalog: SchemaCatalog, tag: string): Json {
  const http = capability.http;
  if (!http) throw new Error(`${capability.tool} has no REST route`);
  const input = referenceSchemas(capability).input;
  const operation: Json = {
    operationId: capability.tool,
    summary: capability.summary,
    description: descriptionOf(capability),
    tags: [tag],
    // Alternatives: any one of the scopes allows the call (uploads: the scope follows the purpose;
    // export: each read scope adds its sections).
    security: securityRequirements(capability),
    "x-scopes": acceptedScopes(capability),
    "x-tool": capability.tool,
    parameters: parameters(capability, input),
  };
  if (http.method === "POST" || http.method === "PATCH") {
    const body = bodySchema(capability);
    const required = Array.isArray(body.required) && body.required.length > 0;
    operation.requestBody = {
      required,
      description: REQUEST_BODY_RULE,
      content: { "application/json": { schema: catalog.named(body), example: bodyExample(capability, body) } },
    };
  }
  operation.responses = { ...successResponses(capability, catalog), ...errorResponses(capability) };
  const example = (operation.requestBody as { content: Record<string, { example?: unknown }> } | undefined)?.content[
    "application/json"
  ]?.example;
  operation["x-codeSamples"] = codeSamples(capability, {
    body: example,
    query: sampleQuery(operation.parameters as Json[]),
    download: download(capability),
  });
  if ((operation.parameters as Json[]).length === 0) delete operation.parameters;
  return operation;
}

/** A request body example from the registry's field examples, else one built from the schema. */
function bodyExample(capability: Capability, body: JsonSchema): unknown {
  const properties = Object.keys((body.properties ?? {}) as object);
  if (capability.source.kind !== "resource") return exampleOf(body);
  const fields = capability.source.resource.fields;
  const known = properties.filter((name) => fields[name]?.example !== undefined);
  if (known.length === 0) return exampleOf(body);
  const required = new Set(Array.isArray(body.required) ? (body.required as string[]) : []);
  const picked = properties.filter((name) => required.has(name) || known.includes(name));
  const generated = exampleOf(body) as Record<string, unknown>;
  return Object.fromEntries(
    picked.map((name) => {
      const example = fields[name]?.example;
      return [name, example === undefined ? generated[name] : example];
    }),
  );
}

/** What a sample sends in the query: each required parameter with an example value, and a page size. */
function sampleQuery(parameters: Json[]): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  for (const parameter of parameters) {
    if (parameter.in === "query" && parameter.required)
      query[String(parameter.name)] = String(exampleOf(parameter.schema as JsonSchema));
  }
  if (parameters.some((parameter) => parameter.$ref === "#/components/parameters/Limit")) query.limit = 20;
  return query;
}

/** A success answer that is a file (the export's ZIP), which a sample saves instead of printing. */
function download(capability: Capability): { contentType: string; file: string } | undefined {
  const restBody = capability.source.kind === "operation" ? capability.source.operation.restBody : undefined;
  return restBody
    ? { contentType: restBody.contentType, file: `${capability.tool}.${restBody.contentType.split("/")[1]}` }
    : undefined;
}
