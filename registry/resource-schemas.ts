import { z } from "zod";
import type { FieldSpec, ResourceSpec } from "./define.ts";

/**
 * A resource's record, create and update shapes, built from its fields. Kept apart from
 * capabilities.ts so operations can use them (capabilities imports every operation).
 */

/** "an item", "a todo": the reference reads as prose. */
export const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One field's schema as sent and returned: nullable where declared, with its description. */
const fieldSchema = (field: FieldSpec) =>
  (field.nullable ? field.schema.nullable() : field.schema).describe(field.description);

const writable = (resource: ResourceSpec) => Object.entries(resource.fields).filter(([, field]) => !field.readOnly);

export function recordSchema(resource: ResourceSpec): z.ZodObject {
  const shape = Object.fromEntries(Object.entries(resource.fields).map(([name, field]) => [name, fieldSchema(field)]));
  return z.object(shape).describe(`${capitalize(article(resource.singular))}.`);
}

export function createSchema(resource: ResourceSpec): z.ZodObject {
  return z.strictObject(
    Object.fromEntries(
      writable(resource).map(([name, field]) => [
        name,
        field.required ? fieldSchema(field) : fieldSchema(field).optional(),
      ]),
    ),
  );
}

export function updateSchema(resource: ResourceSpec): z.ZodObject {
  return z.strictObject(
    Object.fromEntries(writable(resource).map(([name, field]) => [name, fieldSchema(field).optional()])),
  );
}
