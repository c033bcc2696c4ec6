import { z } from "zod";
import { defineField } from "./define.ts";

/**
 * Whether a value has the form of a row id (any UUID, as Postgres reads one): checked before an id
 * from a URL, a form or a token's claims reaches a `::uuid` cast, which would fail the statement.
 */
export const isUuid = (value: unknown): value is string =>
  typeof value === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Field shapes every resource shares. */
export const idField = (what: string) =>
  defineField({
    schema: z.uuid(),
    readOnly: true,
    description: `Identifier of the ${what}.`,
    example: "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
  });

export const createdAtField = defineField({
  schema: z.iso.datetime({ offset: true }),
  readOnly: true,
  description: "When the record was created (RFC 3339).",
  example: "2026-11-22T09:30:00.000000+00:00",
});

export const updatedAtField = defineField({
  schema: z.iso.datetime({ offset: true }),
  readOnly: true,
  description: "When the record last changed (RFC 3339).",
  example: "2026-11-22T09:45:00.000000+00:00",
});

export const ownerField = (what: string) =>
  defineField({
    schema: z.uuid(),
    readOnly: true,
    description: `The member who owns the ${what}; always the token's member on create.`,
    example: "0b7e5a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c",
  });

export const timezoneField = defineField({
  schema: z.string().min(1).max(64),
  default: "UTC",
  description: "IANA time zone name, e.g. Europe/Berlin. Unknown names are refused.",
  example: "Europe/Berlin",
});

export const handleSchema = z
  .string()
  .regex(/^[A-Za-z0-9_]{3,30}$/, "3–30 letters, digits or underscores")
  .describe("Unique, case-insensitive.");
