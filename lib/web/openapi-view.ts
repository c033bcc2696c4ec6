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
