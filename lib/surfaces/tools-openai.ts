import type { JsonSchema } from "./tools-json-schema.ts";

/**
 * OpenAI function calling in strict mode accepts a subset of JSON Schema: every object lists all
 * of its properties in `required` and sets additionalProperties:false, an optional property is
 * expressed as nullable, and only some keywords and formats are honoured. This turns a tool's
 * input schema into that subset; constraints the subset cannot carry move into the description
 * (the service still enforces them when the call arrives).
 */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const DROPPED = ["minLength", "maxLength", "default", "examples", "$schema", "title"] as const;
// A format the subset knows already pins the shape; zod's long regex beside it only adds noise.
const PATTERN_REDUNDANT = new Set(["uuid", "date-time", "date", "email"]);

const isRecord = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function toOpenAiStrict(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if ((DROPPED as readonly string[]).includes(key)) {
      if (key === "minLength" || key === "maxLength") notes.push(`${key} ${String(value)}`);
      continue;
    }
    if (key === "const") out.enum = [value];
    else if (key === "format" && typeof value === "string" && !STRICT_FORMATS.has(value)) notes.push(`format ${value}`);
    else if (key === "pattern" && PATTERN_REDUNDANT.has(String(schema.format))) continue;
    else if (key === "properties" || key === "required" || key === "additionalProperties") continue;
    else if (key === "items" && isRecord(value)) out.items = toOpenAiStrict(value);
    else if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
      // oneOf is outside the subset; for our schemas (nullable unions) anyOf means the same.
      out.anyOf = value.map((part) => (isRecord(part) ? toOpenAiStrict(part) : part));
    } else out[key] = value;
  }
  if (isRecord(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties: JsonSchema = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isRecord(property)) continue;
      const strict = toOpenAiStrict(property);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  } else if (schema.type === "object") {
    Object.assign(out, { properties: {}, required: [], additionalProperties: false });
  }
  if (notes.length) {
    const text = `Constraints: ${notes.join(", ")}.`;
    out.description = typeof out.description === "string" ? `${out.description} ${text}` : text;
  }
  return out;
}

/** An optional property in strict mode: it must be sent, and null stands for "left out". */
function nullable(schema: JsonSchema): JsonSchema {
  if (allowsNull(schema)) return schema;
  const { description, ...rest } = schema;
  const note = "null to leave it out.";
  const text = typeof description === "string" ? `${description} Send ${note}` : `Send ${note}`;
  if (typeof rest.type === "string" && !rest.enum) return { ...rest, type: [rest.type, "null"], description: text };
  if (Array.isArray(rest.anyOf)) return { ...rest, anyOf: [...rest.anyOf, { type: "null" }], description: text };
  return { anyOf: [rest, { type: "null" }], description: text };
}

function allowsNull(schema: JsonSchema): boolean {
  if (schema.type === "null") return true;
  if (Array.isArray(schema.type) && schema.type.includes("null")) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const union = schema.anyOf ?? schema.oneOf;
  return Array.isArray(union) && union.some((part) => isRecord(part) && allowsNull(part));
}

/**
 * Arguments produced against the strict schema back into what the service accepts: a null for a
 * property that is optional and does not itself accept null means "left out", so it is dropped.
 * A null for a nullable property keeps its meaning (clear the field).
 */
export function fromOpenAiArguments(schema: JsonSchema, args: unknown): unknown {
  if (!isRecord(args) || !isRecord(schema.properties)) return args;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const property = schema.properties[key];
    if (!isRecord(property)) {
      out[key] = value;
      continue;
    }
    if (value === null && !required.has(key) && !allowsNull(property)) continue;
    out[key] = fromOpenAiArguments(property, value);
  }
  return out;
}
