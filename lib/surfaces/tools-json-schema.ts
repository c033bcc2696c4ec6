import { z } from "zod";
import type { Capability } from "../../registry/capabilities.ts";

/** A JSON Schema (2020-12) object as emitted by z.toJSONSchema, without the $schema marker. */
export type JsonSchema = { [key: string]: unknown };

const cache = new Map<string, { input: JsonSchema; output: JsonSchema }>();

/** zod → JSON Schema 2020-12 without the $schema marker (tool definitions and OpenAPI embed it). */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/**
 * The capability's input and output as JSON Schema. Input uses io "input" (what a caller sends:
 * query numbers are numbers, defaults optional); output uses io "output" (what comes back).
 * Computed once per tool: the registry is immutable for the life of the process.
 */
export function capabilitySchemas(capability: Capability): { input: JsonSchema; output: JsonSchema } {
  let schemas = cache.get(capability.tool);
  if (!schemas) {
    schemas = { input: toJsonSchema(capability.input, "input"), output: toJsonSchema(capability.output, "output") };
    cache.set(capability.tool, schemas);
  }
  return schemas;
}
