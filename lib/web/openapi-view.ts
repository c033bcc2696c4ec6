/**
 * Reading the OpenAPI document for the reference page: grouping by tag, following $refs, and
 * short labels for schema types. Pure functions of the document; nothing here knows the registry.
 */
export type Json = Record<string, unknown>;

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export interface OperationView {
  method: (typeof METHODS)[number];
  path: string;
  /** Base URL of the path: /api/v1 unless the path item names its own server. */
  base: string;
  op: Json;
}

export interface TagView {
  name: string;
  description: string;
  operations: OperationView[];
}

const asJson = (value: unknown): Json => (value && typeof value === "object" ? (value as Json) : {});
export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Follows a local "#/components/..." reference; anything else is returned as it is. */
export function deref(doc: Json, value: unknown): Json {
  const node = asJson(value);
  const ref = text(node.$ref);
  if (!ref.startsWith("#/")) return node;
  let target: unknown = doc;
  for (const part of ref.slice(2).split("/")) target = asJson(target)[part];
  return asJson(target);
}

export const refName = (value: unknown): string => text(asJson(value).$ref).split("/").pop() ?? "";

export function tagsWithOperations(doc: Json): TagView[] {
  const defaultBase = text(asJson(asList(doc.servers)[0]).url) || "/api/v1";
  const byTag = new Map<string, OperationView[]>();
  for (const [path, rawItem] of Object.entries(asJson(doc.paths))) {
    const item = asJson(rawItem);
    const base = text(asJson(asList(item.servers)[0]).url) || defaultBase;
    for (const method of METHODS) {
      if (!item[method]) continue;
      const op = asJson(item[method]);
      const tag = text(asList(op.tags)[0]) || "service";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, base, op }]);
    }
  }
  return asList(doc.tags).map((rawTag) => {
    const tag = asJson(rawTag);
    const name = text(tag.name);
    return { name, description: text(tag.description), operations: byTag.get(name) ?? [] };
  });
}

/** A short type label: "string (uuid)", "integer", "Collection[]", "music | film", "string | null". */
export function typeLabel(schema: Json): string {
  if (schema.$ref) return refName(schema);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const variants = asList(schema.anyOf ?? schema.oneOf);
  if (variants.length) return variants.map((variant) => typeLabel(asJson(variant))).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type.map(text) : [text(schema.type) || "any"];
  return types
    .map((type) => {
      if (type === "array") return `${typeLabel(asJson(schema.items))}[]`;
      return schema.format && type !== "null" ? `${type} (${text(schema.format)})` : type;
    })
    .join(" | ");
}

/** Limits worth stating next to a field: lengths, ranges, default, read-only. */
export function constraints(schema: Json): string[] {
  const out: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (min !== undefined && max !== undefined) out.push(`${min}–${max}${unit}`);
    else if (min !== undefined) out.push(`≥ ${min}${unit}`);
    else if (max !== undefined) out.push(`≤ ${max}${unit}`);
  };
  range(schema.minLength, schema.maxLength, " chars");
  range(schema.minimum, schema.maximum, "");
  range(schema.minItems, schema.maxItems, " items");
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.readOnly) out.push("read-only");
  return out;
}

export interface FieldRow {
  name: string;
  schema: Json;
  required: boolean;
}

export function fieldRows(doc: Json, schema: Json): FieldRow[] {
  const resolved = deref(doc, schema);
  const required = new Set(asList(resolved.required).map(text));
  return Object.entries(asJson(resolved.properties)).map(([name, field]) => ({
    name,
    schema: asJson(field),
    required: required.has(name),
  }));
}

export function parameters(doc: Json, op: Json): Json[] {
  return asList(op.parameters).map((parameter) => deref(doc, parameter));
}

export function jsonBody(doc: Json, op: Json): { schema: Json; example: unknown } | null {
  const media = asJson(asJson(asJson(deref(doc, op.requestBody)).content)["application/json"]);
  return media.schema ? { schema: asJson(media.schema), example: media.example } : null;
}

export function successResponse(op: Json): { status: string; schema: Json; example: unknown } | null {
  for (const [status, response] of Object.entries(asJson(op.responses))) {
    if (!status.startsWith("2")) continue;
    const media = asJson(asJson(asJson(response).content)["application/json"]);
    return { status, schema: asJson(media.schema), example: media.example };
  }
  return null;
}

/** The error answers of an operation: status and the codes named in its description. */
export function errorResponses(op: Json): { status: string; codes: { code: string; when: string }[] }[] {
  return Object.entries(asJson(op.responses))
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, response]) => {
      const examples = asJson(asJson(asJson(asJson(response).content)["application/problem+json"]).examples);
      const codes = Object.entries(examples).map(([code, example]) => ({ code, when: text(asJson(example).summary) }));
      return { status, codes: codes.length ? codes : [{ code: "", when: text(asJson(response).description) }] };
    });
}

const EXAMPLE_ID = "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";

/** A copy-paste curl line for the operation, with the example body when there is one. */
export function curlExample(doc: Json, view: OperationView, siteUrl: string): string {
  const path = view.path.replace(/\{[^}]+\}/g, EXAMPLE_ID);
  const query = parameters(doc, view.op).filter((p) => p.in === "query" && p.required);
  const qs = query.length ? `?${query.map((p) => `${text(p.name)}=${encodeURIComponent(String(exampleValue(p)))}`).join("&")}` : "";
  const lines = [`curl -X ${view.method.toUpperCase()} "${siteUrl}${view.base}${path}${qs}"`];
  if (asList(view.op.security).length !== 0 || view.op.security === undefined) {
    lines.push(`  -H "Authorization: Bearer $PDS_TOKEN"`);
  }
  if (parameters(doc, view.op).some((p) => p.name === "Idempotency-Key")) lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
  const body = jsonBody(doc, view.op);
  if (body) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d '${JSON.stringify(body.example ?? {})}'`);
  }
  return lines.join(" \\\n");
}

function exampleValue(parameter: Json): unknown {
  const schema = asJson(parameter.schema);
  return parameter.example ?? asList(schema.examples)[0] ?? asList(schema.enum)[0] ?? "example";
}
