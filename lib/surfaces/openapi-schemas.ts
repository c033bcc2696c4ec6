import type { z } from "zod";
import { type Capability, capabilities, pageOf, recordSchema } from "../../registry/capabilities.ts";
import { confirmDeleteDirective } from "../../registry/confirm-delete.ts";
import { directives, resources } from "../../registry/index.ts";
import { PROBLEM_CODES } from "../http/problem.ts";
import type { JsonSchema } from "./tools-json-schema.ts";
import { referenceSchemas, toJson } from "./openapi-json.ts";

/**
 * Named schemas for the reference: one record, page, create body and update body per resource,
 * the problem body, one schema per browser directive, and the confirm_delete directive of a held delete. Operations point at them with $ref
 * whenever their own schema is exactly one of these, so generated clients get named types.
 */
export const pascal = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function recordJson(resource: (typeof resources)[number]): JsonSchema {
  const schema = toJson(recordSchema(resource), "output");
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [name, field] of Object.entries(resource.fields)) {
    const property = properties[name];
    if (property && field.example !== undefined) property.examples = [field.example];
    if (property && field.readOnly) property.readOnly = true;
  }
  return schema;
}

/** The body half of a capability's input: path parameters come from the URL. */
export function bodySchema(capability: Capability): JsonSchema {
  const input = structuredClone(referenceSchemas(capability).input);
  const pathParams = capability.http?.pathParams ?? [];
  const properties = { ...(input.properties as Record<string, JsonSchema>) };
  for (const name of pathParams) delete properties[name];
  const required = (Array.isArray(input.required) ? (input.required as string[]) : []).filter(
    (name) => !pathParams.includes(name),
  );
  const { required: _required, ...rest } = input;
  return { ...rest, properties, ...(required.length ? { required } : {}) };
}

const PROBLEM: JsonSchema = {
  type: "object",
  description: "RFC 9457 problem details, the body of every error (media type application/problem+json).",
  required: ["type", "title", "status", "detail", "code", "request_id"],
  properties: {
    type: { type: "string", description: "URI reference naming the problem type; resolves to its entry in /docs." },
    title: { type: "string", description: "Short summary of the problem type." },
    status: { type: "integer", minimum: 100, maximum: 599, description: "The HTTP status code." },
    detail: { type: "string", description: "What went wrong with this request, in a sentence." },
    code: { type: "string", enum: Object.keys(PROBLEM_CODES), description: "Stable machine-readable code." },
    request_id: { type: "string", description: "The Request-Id of this request; quote it when reporting a problem." },
    errors: {
      type: "array",
      description: "Per-field problems (422), each pointing into the request input.",
      items: {
        type: "object",
        required: ["pointer", "code", "message"],
        properties: {
          pointer: { type: "string", description: 'JSON Pointer into the input, e.g. "/rating".' },
          code: { type: "string", description: "e.g. unknown_field, read_only, invalid_type, too_big." },
          message: { type: "string" },
        },
      },
    },
    reason: {
      type: "object",
      description:
        "The store's reason for a refused write (403 write_refused, 409 conflict, 422 invalid_request). Where the store names the rule, `code` is stable per rule (e.g. `handle_taken`) and `pointer` is the JSON Pointer of the field it guards (e.g. `/handle`); both also appear as an `errors[]` entry.",
      required: ["sqlstate", "message"],
      properties: {
        sqlstate: { type: "string" },
        message: { type: "string" },
        code: { type: "string", description: "Stable per store rule; absent when the store names none." },
        pointer: { type: "string", description: "JSON Pointer of the field the rule guards." },
      },
    },
    "violated-policies": {
      type: "array",
      items: { type: "string" },
      description: "On 429: the exhausted rate-limit policies.",
    },
  },
};

export interface SchemaCatalog {
  schemas: Record<string, JsonSchema>;
  /** A $ref to a named schema equal to this one, or the schema itself. */
  named(schema: JsonSchema): JsonSchema;
  /** Follows a #/components/schemas/… reference. */
  lookup(ref: string): JsonSchema | undefined;
  directiveRefs: Record<string, JsonSchema>;
}

export function buildSchemas(): SchemaCatalog {
  const schemas: Record<string, JsonSchema> = { Problem: PROBLEM };
  const byShape = new Map<string, string>();
  const add = (name: string, schema: JsonSchema, matchAs?: JsonSchema) => {
    schemas[name] = schema;
    byShape.set(JSON.stringify(matchAs ?? schema), name);
  };
  for (const resource of resources) {
    const name = pascal(resource.singular);
    const record = toJson(recordSchema(resource), "output");
    add(name, recordJson(resource), record);
    if (!resource.verbs.includes("list")) continue;
    const page = toJson(pageOf(recordSchema(resource)), "output");
    add(
      `${name}Page`,
      { ...page, properties: { ...(page.properties as object), data: { type: "array", items: ref(name) } } },
      page,
    );
  }
  for (const capability of capabilities) {
    if (capability.source.kind !== "resource" || !capability.http) continue;
    const { verb, resource } = capability.source;
    if (verb !== "create" && verb !== "update") continue;
    add(`${pascal(resource.singular)}${verb === "create" ? "Create" : "Update"}`, bodySchema(capability));
  }
  const directiveRefs: Record<string, JsonSchema> = {};
  for (const directive of directives) {
    const schema = toJson(directive.directive as z.ZodType, "output");
    const type = String((schema.properties as Record<string, JsonSchema>).type?.const);
    add(`${pascal(type)}Directive`, schema);
    directiveRefs[type] = ref(`${pascal(type)}Directive`);
  }
  // Not a tool's directive: every delete tool answers it (invoke: 202) for a credential that confirms deletes.
  add("ConfirmDeleteDirective", toJson(confirmDeleteDirective, "output"));
  return {
    schemas,
    directiveRefs,
    lookup: (target) => schemas[target.replace("#/components/schemas/", "")],
    named(schema) {
      const name = byShape.get(JSON.stringify(schema));
      return name ? ref(name) : schema;
    },
  };
}
