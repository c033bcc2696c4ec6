import type { ResourceSpec, Verb } from "../../registry/define.ts";
import { notOwnerMessage } from "../../registry/ownership.ts";
import { continuing } from "../db/index.ts";
import { DomainError } from "../errors/domain-error.ts";
import type { Handler, VerbContext } from "./context.ts";
import { buildListScope } from "./list-scopes.ts";
import { keysetPage } from "../http/pagination.ts";
import { toRecord } from "./record.ts";

/**
 * The five verbs, generated for any resource from its registry entry. Values travel as one JSON
 * parameter through jsonb_populate_record, so both drivers type arrays, numbers and times alike,
 * and every row comes back as JSON (to_jsonb, or json_agg for a page; timestamps keep their
 * microseconds for cursors).
 */
type Row = { r: Record<string, unknown> };
type Written = { r: Record<string, unknown> | null; readable: boolean };

const notFound = (resource: ResourceSpec) =>
  new DomainError("not_found", `No ${resource.singular} with this id is visible to this token.`);

/**
 * An update or delete that touched no row: RLS hid it from the write. When the same member can
 * still read it (a public collection, a channel, a follow of which it is the followee) the write
 * was refused, with the reason; otherwise, as on GET, there is no such row for this token.
 */
function untouched(resource: ResourceSpec, verb: "update" | "delete", readable: boolean): DomainError {
  if (!readable) return notFound(resource);
  const message = notOwnerMessage(resource, verb);
  return new DomainError("write_refused", `The store refused the write: ${message}`, {
    reason: { sqlstate: "42501", message, code: "not_owner" },
  });
}

// Whether the row is readable, asked in the write's own statement: the select sees the snapshot
// before the write, under the same member's RLS, and the statement still ends the transaction.
const readableClause = (resource: ResourceSpec, done: string, id: string) =>
  `not exists (select 1 from ${done}) and exists (select 1 from ${resource.table} v where v.id = ${id}) as readable`;

const writableKeys = (resource: ResourceSpec, input: Record<string, unknown>) =>
  Object.keys(input).filter((key) => key in resource.fields && !resource.fields[key]?.readOnly);

const firstWritable = (resource: ResourceSpec): Record<string, unknown> => {
  const name = Object.keys(resource.fields).find((key) => !resource.fields[key]?.readOnly);
  if (!name) throw new Error(`${resource.name} has no writable field`);
  return { [name]: null };
};

// A record's fields in a page, in the registry's order. A shown-once secret has no column (as a
// column it would be readable on every read) and is null, as toRecord answers a field the row lacks.
const pageColumnsOf = new WeakMap<ResourceSpec, string[]>();
export function pageColumns(resource: ResourceSpec): string[] {
  let columns = pageColumnsOf.get(resource);
  if (!columns) {
    columns = Object.entries(resource.fields).map(([name, field]) =>
      field.shownOnce ? `null as "${name}"` : `t."${name}"`,
    );
    pageColumnsOf.set(resource, columns);
  }
  return columns;
}

async function list(resource: ResourceSpec, { tx, input, memberId }: VerbContext) {
  const { after, limit, ...filters } = input;
  const scope = buildListScope(resource, memberId, filters);
  return keysetPage(tx, { from: resource.table, ...scope }, { after, limit }, pageColumns(resource));
}

async function get(resource: ResourceSpec, { tx, input }: VerbContext) {
  const [row] = await tx.queryLast<Row>(`select to_jsonb(t) as r from ${resource.table} t where t.id = $1`, [input.id]);
  if (!row) throw notFound(resource);
  return toRecord(resource, row.r);
}

async function create(resource: ResourceSpec, { tx, input }: VerbContext) {
  const columns = writableKeys(resource, input);
  const list = columns.map((c) => `"${c}"`).join(", ");
  const sql = columns.length
    ? `insert into ${resource.table} as t (${list})
       select ${list} from jsonb_populate_record(null::${resource.table}, $1::jsonb) returning to_jsonb(t) as r`
    : `insert into ${resource.table} as t default values returning to_jsonb(t) as r`;
  const [row] = await tx.queryCommit<Row>(sql, columns.length ? [JSON.stringify(input)] : []);
  if (!row) throw new Error("insert returned nothing");
  return toRecord(resource, row.r);
}

async function update(resource: ResourceSpec, ctx: VerbContext) {
  const { tx, input } = ctx;
  let columns = writableKeys(resource, input);
  // An empty change still has to pass the update policy: assign a column to itself, so a row
  // the member may read but not change (a channel) is refused, not a quiet 200.
  if (columns.length === 0) columns = writableKeys(resource, firstWritable(resource));
  const list = columns.map((c) => `"${c}"`).join(", ");
  const [row] = await tx.queryCommit<Written>(
    `with changed as (
       update ${resource.table} t set (${list}) = (
         select ${list} from jsonb_populate_record(t, $1::jsonb))
       where t.id = $2 returning to_jsonb(t) as r)
     select (select r from changed) as r, ${readableClause(resource, "changed", "$2")}`,
    [JSON.stringify(input), input.id],
  );
  if (!row?.r) throw untouched(resource, "update", row?.readable === true);
  return toRecord(resource, row.r);
}

async function remove(resource: ResourceSpec, { tx, input }: VerbContext) {
  const [row] = await tx.queryCommit<{ deleted: boolean; readable: boolean }>(
    `with gone as (delete from ${resource.table} t where t.id = $1 returning t.id)
     select exists (select 1 from gone) as deleted, ${readableClause(resource, "gone", "$1")}`,
    [input.id],
  );
  if (!row?.deleted) throw untouched(resource, "delete", row?.readable === true);
  return null;
}

const VERB_HANDLERS: Record<Verb, (resource: ResourceSpec, ctx: VerbContext) => Promise<unknown>> = {
  list,
  get,
  create,
  update,
  delete: remove,
};

export function genericHandler(resource: ResourceSpec, verb: Verb): Handler {
  const run = VERB_HANDLERS[verb];
  return (ctx) => run(resource, ctx);
}

/**
 * A verb run as one step of a larger handler: its statement does not end the transaction as it
 * does when the verb is the whole handler (queryLast, queryCommit), so the steps after it still run.
 */
export function genericStep(resource: ResourceSpec, verb: Verb): Handler {
  const run = VERB_HANDLERS[verb];
  return (ctx) => run(resource, { ...ctx, tx: continuing(ctx.tx) });
}
