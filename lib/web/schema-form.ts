/**
 * Turning a tool's JSON Schema into form fields and a filled form back into the tool's input.
 * Pure, so the browser and the tests share it. Objects, arrays and unions are edited as JSON.
 */
export type JsonSchema = { [key: string]: unknown };
export type FieldKind = "string" | "number" | "boolean" | "enum" | "json";

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  options: string[];
  format?: string;
  nullable: boolean;
}

const obj = (value: unknown): JsonSchema => (value && typeof value === "object" ? (value as JsonSchema) : {});

function nonNullVariant(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) {
    const rest = variants.map(obj).filter((variant) => variant.type !== "null");
    const nullable = rest.length < variants.length;
    return rest.length === 1 && rest[0]
      ? { schema: { ...rest[0], description: schema.description }, nullable }
      : { schema, nullable };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== "null");
    return {
      schema: { ...schema, type: types.length === 1 ? types[0] : types },
      nullable: types.length < schema.type.length,
    };
  }
  return { schema, nullable: false };
}

export function formFields(inputSchema: JsonSchema): FormField[] {
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.map(String) : []);
  return Object.entries(obj(inputSchema.properties)).map(([name, raw]) => {
    const { schema, nullable } = nonNullVariant(obj(raw));
    const type = schema.type;
    const kind: FieldKind = Array.isArray(schema.enum)
      ? "enum"
      : type === "integer" || type === "number"
        ? "number"
        : type === "boolean"
          ? "boolean"
          : type === "string"
            ? "string"
            : "json";
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof schema.description === "string" ? schema.description : "",
      options: Array.isArray(schema.enum) ? schema.enum.map(String) : [],
      format: typeof schema.format === "string" ? schema.format : undefined,
      nullable,
    };
  });
}

export type BuiltInput = { ok: true; input: Record<string, unknown> } | { ok: false; field: string; message: string };

/** Empty fields are left out (the tool's defaults apply); JSON fields must parse. */
export function inputFromForm(fields: readonly FormField[], values: Record<string, string>): BuiltInput {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name] ?? "";
    if (raw.trim() === "") continue;
    if (field.kind === "number") input[field.name] = Number(raw);
    else if (field.kind === "boolean") input[field.name] = raw === "true";
    else if (field.kind === "json") {
      try {
        input[field.name] = JSON.parse(raw);
      } catch {
        return { ok: false, field: field.name, message: `${field.name}: not valid JSON.` };
      }
    } else if (field.nullable && raw === "null") input[field.name] = null;
    else input[field.name] = raw;
  }
  return { ok: true, input };
}
