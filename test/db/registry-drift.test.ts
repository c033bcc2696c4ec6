import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { newestGeneratedMigration } from "@/lib/db/generated-migration";
import { REGISTRY_CONSTANTS_SUFFIX, registryConstantsSql } from "@/lib/db/registry-constants";
import { resources } from "@/registry";
import type { FieldSpec, ResourceSpec } from "@/registry/define";
import { CHECK_IN_MAX_DAYS_BACK } from "@/registry/limits";

// The registry says what a field may hold; the store must say the same, or a value the API accepts
// is refused by the store (a confusing 422) or a value written by SQL breaks the API's output.

interface Column {
  name: string;
  type: string;
  element: string | null;
  nullable: boolean;
  can_insert: boolean;
  can_update: boolean;
  enum_labels: string[] | null;
}

interface Bounds {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  enum?: string[];
  pattern?: string;
  itemMinimum?: number;
  itemMaximum?: number;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** What a field's zod schema promises, read through the JSON Schema the surfaces publish. */
function registryBounds(field: FieldSpec): Bounds {
  const json = z.toJSONSchema(field.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const items = (json.items ?? {}) as Record<string, unknown>;
  const num = (value: unknown) => (typeof value === "number" && Math.abs(value) < SAFE ? value : undefined);
  const bounds: Bounds = {
    minLength: num(json.minLength),
    maxLength: num(json.maxLength),
    minimum: num(json.minimum),
    maximum: num(json.maximum),
    maxItems: num(json.maxItems),
    enum: Array.isArray(json.enum) ? (json.enum as string[]) : undefined,
    pattern: typeof json.pattern === "string" && !json.format ? json.pattern : undefined,
    itemMinimum: num(items.minimum),
    itemMaximum: num(items.maximum),
  };
  return Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined)) as Bounds;
}

/** The same bounds read back from the store's CHECK constraints on one column. */
function storeBounds(column: string, defs: string[]): Bounds {
  const c = `\\(*(?:"?${column}"?)\\)*(?:::text)?`;
  const n = "\\(*'?(-?[0-9.]+)'?\\)*(?:::numeric)?";
  const bounds: Bounds = {};
  for (const def of defs) {
    const grab = (re: string) => new RegExp(re).exec(def)?.[1];
    const minLength = grab(`char_length${c} >= ${n}`) ?? grab(`char_length${c} >= ([0-9]+)`);
    if (minLength) bounds.minLength = Number(minLength);
    const maxLength = grab(`char_length${c} <= ${n}`);
    if (maxLength) bounds.maxLength = Number(maxLength);
    const minimum = grab(`[( ]"?${column}"? >= ${n}`);
    if (minimum) bounds.minimum = Number(minimum);
    const maximum = grab(`[( ]"?${column}"? <= ${n}`);
    if (maximum) bounds.maximum = Number(maximum);
    const maxItems = grab(`cardinality${c} <= ([0-9]+)`);
    if (maxItems) bounds.maxItems = Number(maxItems);
    const itemMin = grab(`([0-9]+) <= ALL \\(${column}\\)`);
    if (itemMin) bounds.itemMinimum = Number(itemMin);
    const itemMax = grab(`([0-9]+) >= ALL \\(${column}\\)`);
    if (itemMax) bounds.itemMaximum = Number(itemMax);
    const list = grab(`${c} = ANY \\(ARRAY\\[(.*?)\\]\\)`);
    if (list) bounds.enum = [...list.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? "");
    const single = grab(`\\(${c} = '([^']*)'::text\\)`);
    if (single) bounds.enum = [single];
    const pattern = grab(`${c} ~ '(.*)'::text`);
    if (pattern) bounds.pattern = pattern.replaceAll("''", "'");
  }
  return bounds;
}

async function baseTable(table: string): Promise<string> {
  const db = await getDb();
  const [schema, name] = table.split(".");
  const rows = await db.query<{ base: string }>(
    `select distinct table_schema || '.' || table_name as base from information_schema.view_table_usage
     where view_schema = $1 and view_name = $2`,
    [schema, name],
  );
  return rows.length === 1 && rows[0] ? rows[0].base : table;
}

async function columns(table: string): Promise<Map<string, Column>> {
  const db = await getDb();
  const rows = await db.query<Column>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
       case when t.typcategory = 'A' then format_type(t.typelem, null) end as element,
       not a.attnotnull as nullable,
       has_column_privilege('authenticated', a.attrelid, a.attname, 'INSERT') as can_insert,
       has_column_privilege('authenticated', a.attrelid, a.attname, 'UPDATE') as can_update,
       (select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e where e.enumtypid = a.atttypid) as enum_labels
     from pg_attribute a join pg_type t on t.oid = a.atttypid
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped`,
    [table],
  );
  return new Map(rows.map((row) => [row.name, row]));
}

/** CHECK constraints that read exactly one column, by column. */
async function singleColumnChecks(table: string): Promise<Map<string, string[]>> {
  const db = await getDb();
  const rows = await db.query<{ column: string; def: string }>(
    `select a.attname as column, pg_get_constraintdef(c.oid) as def
     from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where c.conrelid = $1::regclass and c.contype = 'c' and cardinality(c.conkey) = 1`,
    [table],
  );
  const byColumn = new Map<string, string[]>();
  for (const row of rows) byColumn.set(row.column, [...(byColumn.get(row.column) ?? []), row.def]);
  return byColumn;
}

/** Which SQL types hold which JSON Schema type. */
const STORE_TYPES: Record<string, RegExp> = {
  string: /^(text|extensions\.citext|citext|uuid|timestamp with time zone|date|character varying.*)$/,
  integer: /^(smallint|integer|bigint)$/,
  number: /^(numeric|double precision|real)$/,
  boolean: /^boolean$/,
  array: /\[\]$/,
  object: /^jsonb?$/,
};

function jsonType(field: FieldSpec): string | undefined {
  const json = z.toJSONSchema(field.schema, { io: "input", unrepresentable: "any" }) as { type?: unknown };
  return typeof json.type === "string" ? json.type : undefined;
}

const tabled = resources.filter((resource: ResourceSpec) => resource.table);

interface Shape {
  resource: ResourceSpec;
  cols: Map<string, Column>;
  baseCols: Map<string, Column>;
  checks: Map<string, string[]>;
}

async function shape(resource: ResourceSpec): Promise<Shape> {
  const base = await baseTable(resource.table);
  return {
    resource,
    cols: await columns(resource.table),
    baseCols: await columns(base),
    checks: await singleColumnChecks(base),
  };
}

describe("registry ↔ store drift", () => {
  it.each(
    tabled.map((r) => [r.name, r] as const),
  )("%s: every field is a column of a matching type and nullability", async (_, resource) => {
    const { cols, baseCols } = await shape(resource);
    for (const [name, field] of Object.entries(resource.fields)) {
      // A secret shown once is kept elsewhere (encrypted or hashed), never as a column of its own.
      if (field.shownOnce) continue;
      const column = cols.get(name);
      expect(column, `${resource.table}.${name}`).toBeDefined();
      if (!column) continue;
      const type = jsonType(field);
      if (type) expect(column.type, `${resource.table}.${name} holds ${type}`).toMatch(STORE_TYPES[type] ?? /^$/);
      // Views report every column nullable; the table underneath says what the store refuses.
      const stored = baseCols.get(name) ?? column;
      expect(stored.nullable, `${resource.table}.${name} nullable`).toBe(Boolean(field.nullable));
      if (column.enum_labels)
        expect(column.enum_labels, `${resource.table}.${name} enum`).toEqual(registryBounds(field).enum);
    }
  });

  it.each(
    tabled.map((r) => [r.name, r] as const),
  )("%s: members may write exactly the writable fields", async (_, resource) => {
    const { cols } = await shape(resource);
    const writable = Object.entries(resource.fields)
      .filter(([, field]) => !field.readOnly)
      .map(([name]) => name)
      .sort();
    const granted = (can: (column: Column) => boolean) =>
      [...cols.values()]
        .filter(can)
        .map((column) => column.name)
        .sort();
    expect(
      granted((c) => c.can_insert),
      `INSERT grants on ${resource.table}`,
    ).toEqual(resource.verbs.includes("create") ? writable : []);
    expect(
      granted((c) => c.can_update),
      `UPDATE grants on ${resource.table}`,
    ).toEqual(resource.verbs.includes("update") ? writable : []);
  });

  it.each(
    tabled.map((r) => [r.name, r] as const),
  )("%s: the store's CHECKs state the registry's bounds", async (_, resource) => {
    const { checks, baseCols } = await shape(resource);
    for (const [name, field] of Object.entries(resource.fields)) {
      const wanted = registryBounds(field);
      // Derived, read-only numbers have no store rule to match (the database computes them).
      if (field.readOnly && !wanted.enum) continue;
      const column = baseCols.get(name);
      // Types the store parses (uuid, timestamps, dates) need no pattern of their own.
      if (column && !/text|citext/.test(column.type)) delete wanted.pattern;
      const stated = storeBounds(name, checks.get(name) ?? []);
      // A format zod checks (a URL's https scheme) may have a coarser pattern in the store.
      if (!wanted.pattern) delete stated.pattern;
      expect(stated, `${resource.table}.${name}`).toEqual(wanted);
    }
  });
});

/** Does the store's rule for one column accept the value? (evaluates the column's CHECKs on it alone) */
async function storeAccepts(table: string, column: Column, value: unknown): Promise<boolean> {
  const db = await getDb();
  const exprs = await db.query<{ expr: string }>(
    `select pg_get_expr(c.conbin, c.conrelid) as expr from pg_constraint c join pg_attribute a
       on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where c.conrelid = $1::regclass and c.contype = 'c' and cardinality(c.conkey) = 1 and a.attname = $2`,
    [table, column.name],
  );
  if (exprs.length === 0) return true;
  const cast = column.element
    ? `array(select jsonb_array_elements_text($1::jsonb))::${column.element}[]`
    : `($1::jsonb #>> '{}')::${column.type}`;
  const checks = exprs.map((row) => `coalesce((${row.expr}), true)`).join(" and ");
  try {
    const [row] = await db.query<{ ok: boolean }>(
      `select ${checks} as ok from (select ${cast} as "${column.name}") as t`,
      [JSON.stringify(value)],
    );
    return row?.ok === true;
  } catch (error) {
    // The column's type refuses it (1.5 for an integer): a refusal, as an insert would be.
    if (/^22/.test(String((error as { code?: unknown }).code))) return false;
    throw error;
  }
}

/** A zod refine (a rule only zod knows, such as the RRULE subset): only one direction can hold. */
function hasCustomCheck(schema: z.ZodType): boolean {
  const checks = (schema as unknown as { _zod: { def: { checks?: { _zod: { def: { check: string } } }[] } } })._zod.def
    .checks;
  return (checks ?? []).some((check) => check._zod.def.check === "custom");
}

/** Values just inside and just outside each bound (no NUL: text cannot hold it, a separate refusal). */
function boundaryValues(bounds: Bounds): fc.Arbitrary<unknown> {
  const char = fc.constantFrom(..."abcXYZ019_-éßж漢");
  const ofLength = (n: number) => fc.array(char, { minLength: n, maxLength: n }).map((cs) => cs.join(""));
  const options: fc.Arbitrary<unknown>[] = [];
  if (bounds.maxLength !== undefined) options.push(ofLength(bounds.maxLength), ofLength(bounds.maxLength + 1));
  if (bounds.minLength !== undefined && bounds.minLength > 0)
    options.push(ofLength(bounds.minLength), ofLength(bounds.minLength - 1));
  for (const edge of [bounds.minimum, bounds.maximum]) {
    if (edge !== undefined)
      options.push(fc.constantFrom(edge - 1, edge, edge + 1), fc.double({ min: edge - 2, max: edge + 2, noNaN: true }));
  }
  if (bounds.enum)
    options.push(
      fc.constantFrom(...bounds.enum),
      fc.string({ maxLength: 12 }).filter((s) => !s.includes("\u0000")),
    );
  if (bounds.maxItems !== undefined) {
    const item: fc.Arbitrary<unknown> =
      bounds.itemMaximum !== undefined
        ? fc.integer({ min: (bounds.itemMinimum ?? 0) - 1, max: bounds.itemMaximum + 1 })
        : ofLength(3);
    options.push(fc.array(item, { minLength: bounds.maxItems, maxLength: bounds.maxItems + 1 }));
  }
  return fc.oneof(...options);
}

describe("zod and the store agree at every registry bound (fast-check)", () => {
  const cases = tabled.flatMap((resource) =>
    Object.entries(resource.fields)
      .filter(([, field]) => !field.readOnly)
      .map(([name, field]) => ({ resource, name, field, bounds: registryBounds(field) }))
      .filter(({ bounds }) => Object.keys(bounds).some((key) => key !== "pattern"))
      .map((c) => [`${c.resource.name}.${c.name}`, c] as const),
  );

  it.each(cases)("%s", async (_, { resource, name, field, bounds }) => {
    const base = await baseTable(resource.table);
    const column = (await columns(base)).get(name);
    if (!column) throw new Error(`${base}.${name} is missing`);
    const refined = hasCustomCheck(field.schema);
    await fc.assert(
      fc.asyncProperty(boundaryValues(bounds), async (value) => {
        const parsed = field.schema.safeParse(value);
        const accepted = await storeAccepts(base, column, parsed.success ? parsed.data : value);
        // What zod lets through the store keeps; what the store refuses zod refused first.
        if (parsed.success) expect(accepted, `store refuses ${JSON.stringify(value)}`).toBe(true);
        if (!accepted) expect(parsed.success).toBe(false);
        // With no rule of zod's own (a refine) and nothing to trim, the two give the same answer.
        if (!refined && (typeof value !== "string" || value.trim() === value)) {
          expect(parsed.success, JSON.stringify(value)).toBe(accepted);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("registry constants in SQL", () => {
  it("the latest *_registry_constants.sql is what scripts/build-registry-constants.ts writes now", () => {
    const file = newestGeneratedMigration(REGISTRY_CONSTANTS_SUFFIX);
    expect(file).toBeDefined();
    expect(file?.sql, "run: node scripts/build-registry-constants.ts").toBe(registryConstantsSql());
  });

  it("the store's check-in window is the registry's", async () => {
    const db = await getDb();
    const [row] = await db.query<{ days: number }>("select app_private.limit_check_in_max_days_back() as days");
    expect(row?.days).toBe(CHECK_IN_MAX_DAYS_BACK);
  });
});
