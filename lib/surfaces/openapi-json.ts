import type { z } from "zod";
import type { Capability } from "../../registry/capabilities.ts";
import { capabilitySchemas, type JsonSchema, toJsonSchema } from "./tools-json-schema.ts";

/** zod → JSON Schema for the reference (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export function toJson(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return withoutRedundantPatterns(toJsonSchema(schema, io)) as JsonSchema;
}

// zod spells uuid and date-time out as long regexes beside the format; the format already says it,
// and repeating the regexes in every operation would make the document several times larger.
const FORMATS_WITH_PATTERN = new Set(["uuid", "date-time", "date", "email"]);

export function withoutRedundantPatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRedundantPatterns);
  if (typeof value !== "object" || value === null) return value;
  const record = value as JsonSchema;
  const drop = typeof record.format === "string" && FORMATS_WITH_PATTERN.has(record.format);
  return Object.fromEntries(
    Object.entries(record)
      .filter(([key]) => !(drop && key === "pattern"))
      .map(([key, inner]) => [key, withoutRedundantPatterns(inner)]),
  );
}

const FIXED: Record<string, unknown> = {
  uuid: "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
  "date-time": "2026-11-22T09:30:00.000000+00:00",
  date: "2026-11-22",
  email: "ada@example.org",
  uri: "https://example.org/",
};

/**
 * An example value that fits a schema, for operations whose fields carry no registry example:
 * the schema's own examples first, then a value built from its type and bounds.
 */
export function exampleOf(
  schema: JsonSchema,
  lookup: (ref: string) => JsonSchema | undefined = () => undefined,
): unknown {
  if (typeof schema.$ref === "string") return exampleOf(lookup(schema.$ref) ?? {}, lookup);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return exampleOf(union.find((part) => part.type !== "null") ?? union[0] ?? {}, lookup);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, exampleOf(property, lookup)]),
      );
    }
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      return min > 0 && schema.items ? [exampleOf(schema.items as JsonSchema, lookup)] : [];
    }
    case "string": {
      const format = typeof schema.format === "string" ? FIXED[schema.format] : undefined;
      if (format !== undefined) return format;
      const min = typeof schema.minLength === "number" ? schema.minLength : 1;
      const max = typeof schema.maxLength === "number" ? schema.maxLength : 50;
      return "example".padEnd(min, "x").slice(0, Math.min(max, Math.max(min, 7)));
    }
    case "integer":
    case "number":
      if (typeof schema.minimum === "number") return schema.minimum;
      return typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 1;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}

const referenceCache = new Map<string, { input: JsonSchema; output: JsonSchema }>();

/** A capability's schemas as the reference shows them (the tool's, without the redundant regexes). */
export function referenceSchemas(capability: Capability): { input: JsonSchema; output: JsonSchema } {
  let schemas = referenceCache.get(capability.tool);
  if (!schemas) {
    const { input, output } = capabilitySchemas(capability);
    schemas = {
      input: withoutRedundantPatterns(input) as JsonSchema,
      output: withoutRedundantPatterns(output) as JsonSchema,
    };
    referenceCache.set(capability.tool, schemas);
  }
  return schemas;
}
