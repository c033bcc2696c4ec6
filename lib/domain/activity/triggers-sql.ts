import { ACTIVITY_SOURCES, type ActivitySource } from "../../../registry/activity.ts";
import { EVENT_KINDS } from "../../../registry/events.ts";
import { sqlLiteral } from "../../db/trigger-sql.ts";

/** The name ending of the migrations holding the activity triggers (scripts/build-activity-triggers.ts). */
export const ACTIVITY_TRIGGERS_SUFFIX = "_activity_triggers.sql";

/** What the activity triggers and their functions are named: activity_<operation, dots as underscores>. */
export const activityTriggerName = (source: ActivitySource) => `activity_${source.operation.replace(/\./g, "_")}`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The statements every recording function shares: the claims (member and actor) read once, and a
 * session, the service or a write without claims records nothing.
 */
const DECLARE_ACTOR = `  v_claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  v_actor jsonb := v_claims -> 'actor';
  v_kind text := v_actor ->> 'kind';`;
const NOT_A_CREDENTIAL = `  if v_kind is distinct from 'token' and v_kind is distinct from 'oauth' then
    return null;
  end if;`;

/**
 * The insert of the ledger row; `values` are those of record_id, cascaded, xact, before and after. With
 * `from`, one row for each row of that relation (a statement's deleted rows) instead of one;
 * `indent` shifts the statement right, for a nested block.
 */
function insertSql(
  source: ActivitySource,
  values: { id: string; cascaded?: string; xact?: string; before?: string; after?: string },
  options: { from?: string; indent?: string } = {},
) {
  const row = `(v_claims ->> 'sub')::uuid, v_kind, v_actor ->> 'id', v_actor ->> 'surface', ${sqlLiteral(source.operation)},
    ${sqlLiteral(source.table)}, ${source.keyed ? values.id : "null"}, ${values.cascaded ?? "false"}, ${values.xact ?? "null"},
    nullif(current_setting('pds.undo_of', true), '')::uuid,
    ${values.before ?? "null"},
    ${values.after ?? "null"}`;
  const sql = `  insert into public.activity
    (owner_id, actor_kind, actor_id, surface, operation, record_table, record_id, cascaded, xact, undo_of, before, after)
  ${options.from ? `select\n    ${row}\n  from ${options.from};` : `values (\n    ${row}\n  );`}`;
  return sql.replace(/^/gm, options.indent ?? "");
}

/** `old.c is distinct from new.c or …` over the writable columns: the trigger's WHEN. */
const changedSql = (columns: readonly string[]) =>
  columns.map((c) => `old.${quoteIdent(c)} is distinct from new.${quoteIdent(c)}`).join("\n    or ");

/**
 * An update's previous values of the writable columns it changed (only what undo puts back), as one
 * object. The trigger's WHEN has already checked that at least one of them changed.
 */
const beforeSql = (columns: readonly string[]) =>
  columns
    .map(
      (c) =>
        `case when old.${quoteIdent(c)} is distinct from new.${quoteIdent(c)} then jsonb_build_object(${sqlLiteral(c)}, old.${quoteIdent(c)}) else '{}' end`,
    )
    .join("\n    || ");

function bodySql(source: ActivitySource): string {
  if (source.on === "insert") {
    return `declare
${DECLARE_ACTOR}
begin
${NOT_A_CREDENTIAL}
${insertSql(source, { id: "new.id" })}
  return null;
end`;
  }
  if (source.on === "update") {
    return `declare
${DECLARE_ACTOR}
begin
${NOT_A_CREDENTIAL}
${insertSql(source, {
  id: "new.id",
  before: source.image ? beforeSql(source.writable) : undefined,
  after: source.image ? "to_jsonb(new)" : undefined,
})}
  return null;
end`;
  }
  // A deleted row holding the id of another row deleted in the same transaction went with it (on delete
  // cascade: a collection's items, a streak's check-ins): it is marked cascaded, whichever of the two is
  // recorded first, and comes back with its parent. One call a statement, over all the rows it deleted (the
  // transition table "deleted"), matching them with the transaction's earlier entries by hash joins: a row's
  // own call had searched every entry of its transaction, so a collection of n items cost n²
  // (bench/results/2026-11-29-writes.md). In a cascade the parent's call comes first (the cascade's rows are
  // queued behind it), then its children's, each matched with it. The transaction's first deletion has no
  // earlier entry to match, so it only inserts, as a lone API delete does. Its mark is a transaction-local
  // setting, written in the same subtransaction as its entries: a savepoint rolled back takes both back, so a
  // later deletion is then the first again and still finds nothing to match. The rows of one statement are
  // not matched with each other: no recorded table refers to itself (test/activity/cascade.test.ts). A
  // matched statement's entries may come in the join's order rather than the deletion's (their created_at):
  // only a cascade's rows share a statement through the API, and they come back with their parent, never one
  // by one.
  if (!source.keyed)
    throw new Error(`${source.operation}: a deletion is recorded by its row's id, and ${source.table} has none`);
  const image = source.image ? "to_jsonb(d)" : undefined;
  return `declare
${DECLARE_ACTOR}
  -- None while the transaction has written nothing: then this statement deleted nothing (a row not the
  -- member's), and taking an id would only cost its commit a record.
  v_xact bigint := txid_current_if_assigned();
begin
${NOT_A_CREDENTIAL}
  if v_xact is null then
    return null;
  end if;
  -- The transaction's first deletion: no earlier entry of it to match.
  if current_setting('pds.deletions_recorded', true) is distinct from v_xact::text then
    perform set_config('pds.deletions_recorded', v_xact::text, true);
${insertSql(source, { id: "d.id", xact: "v_xact", before: image }, { from: "deleted d", indent: "  " })}
    return null;
  end if;
  -- A cascade that found no rows (an empty collection) still calls its trigger: one look, not two statements.
  if not exists (select from deleted) then
    return null;
  end if;
  update public.activity c set cascaded = true
   where c.id in (
     select a.id from public.activity a cross join lateral jsonb_each_text(a.before) e
       join deleted d on d.id::text = e.value
      where a.xact = v_xact and not a.cascaded and e.key <> 'id');
  with child (id) as (
    select distinct d.id from deleted d cross join lateral jsonb_each_text(to_jsonb(d)) e
      join public.activity p on p.record_id::text = e.value and p.xact = v_xact
     where e.key <> 'id')
${insertSql(
  source,
  { id: "d.id", cascaded: "child.id is not null", xact: "v_xact", before: image },
  { from: "deleted d left join child on child.id = d.id" },
)}
  return null;
end`;
}

/** One source's recording function and its trigger. */
function sourceSql(source: ActivitySource): string {
  const name = activityTriggerName(source);
  const when =
    source.on === "update"
      ? `\n  for each row when (${changedSql(source.writable)})`
      : source.on === "delete"
        ? "\n  referencing old table as deleted for each statement"
        : "\n  for each row";
  return `create function app_private.${name}() returns trigger
language plpgsql security definer set search_path = '' as $$
${bodySql(source)} $$;
revoke all on function app_private.${name}() from public;
create trigger ${name} after ${source.on} on ${source.table}${when}
  execute function app_private.${name}();`;
}

/**
 * Drops every earlier activity trigger with its function: the generic app_private.record_activity of
 * 20261126120000_create_activity.sql and the per-source functions this generator writes (trigger
 * functions named activity_*), so the migration applies over any earlier version of itself.
 */
const DROP_EARLIER = `do $$
declare
  f regprocedure;
begin
  for f in select p.oid::regprocedure from pg_proc p
    where p.pronamespace = 'app_private'::regnamespace and p.prorettype = 'pg_catalog.trigger'::regtype
      and (p.proname = 'record_activity' or p.proname like 'activity\\_%') loop
    execute format('drop function %s cascade', f);
  end loop;
end $$;`;

/**
 * Whether the source's writes are recorded by the event they fire (app_private.emit_webhook_event, from
 * 20261127200000_ledger_from_events.sql) rather than by a trigger of their own: a create or an update of
 * a table with an event of the same name. A deletion keeps its trigger: it records the whole row and what
 * went with it, which undo restores.
 */
export const recordedByEvent = (source: ActivitySource) =>
  source.on !== "delete" &&
  EVENT_KINDS.some((kind) => kind.type === source.operation && kind.table === source.table && kind.on === source.on);

/**
 * The kinds of event the ledger records, for the event function: null for any other kind, the writable
 * columns for an update (the previous values kept are those of the ones it changed; a change of none is
 * not the credential's write), none for a create. Immutable and without a SET clause, so it is inlined.
 */
function writableSql(sources: readonly ActivitySource[]): string {
  const branches = sources
    .filter(recordedByEvent)
    .map(
      (source) =>
        `    when ${sqlLiteral(source.operation)} then array[${source.on === "update" ? source.writable.map(sqlLiteral).join(", ") : ""}]::text[]`,
    );
  return `create or replace function app_private.activity_writable(p_type text) returns text[]
language sql immutable parallel safe as $$
  select case p_type
${branches.join("\n")}
  end
$$;`;
}

/**
 * The SQL of the migration: the kinds of event that record a credential's creates and updates
 * (writableSql), and for each other (table, write) a credential can make, a function recording it in
 * public.activity (supabase/migrations/20261126120000_create_activity.sql) and the trigger calling it.
 * Each function is written for its table: the columns it compares and copies are named, not looked up
 * at each call. A session, the service or a write without claims records nothing.
 */
export function activityTriggersSql(sources: readonly ActivitySource[] = ACTIVITY_SOURCES): string {
  return [
    "-- Generated by scripts/build-activity-triggers.ts from registry/activity.ts; a changed registry gets a",
    "-- new migration. Do not edit by hand.",
    DROP_EARLIER,
    writableSql(sources),
    ...sources.filter((source) => !recordedByEvent(source)).map(sourceSql),
    "",
  ].join("\n");
}
