import {
  ACTIVITY_KEEP_DAYS,
  type ActivitySource,
  activitySourceByOperation,
  RESOURCES_WITHOUT_IMAGE,
} from "../../../registry/activity.ts";
import { listInProse, proseName } from "../../../registry/resource-prose.ts";
import type { Scope } from "../../../registry/scopes.ts";
import type { Actor, Queryable } from "../../db/index.ts";
import { DomainError, type FieldError } from "../../errors/domain-error.ts";
import type { ToolHandler } from "../context.ts";

interface ActivityRow {
  id: string;
  actor_kind: string;
  actor_id: string;
  operation: string;
  record_table: string | null;
  record_id: string | null;
  status: number | null;
  cascaded: boolean;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  undone_at: string | null;
  recent: boolean;
  created_at: string;
  /** Set on an entry kept in the events (a create or an update): the record's sequence that write left. */
  record_sequence: string | null;
}

const RECENT = `created_at > now() - interval '${ACTIVITY_KEEP_DAYS} days' as recent`;
/** As the API writes every time (to_jsonb of a timestamptz, RFC 3339), not a JS Date's toString(). */
const UNDONE_AT = "to_jsonb(undone_at) #>> '{}' as undone_at";
/** Deletions, refusals and the writes of tables without events: public.activity. */
const COLUMNS = `id, actor_kind, actor_id, operation, record_table, record_id, status, cascaded, before, after, ${UNDONE_AT},
  ${RECENT}, created_at, null::bigint as record_sequence`;
/** Creates and updates: the events, through app_private.credential_writes (20261127200000_ledger_from_events.sql). */
const EVENT_COLUMNS = `id, actor_kind, actor_id, operation, null::text as record_table, record_id, null::smallint as status,
  false as cascaded, before, after, ${UNDONE_AT}, ${RECENT}, created_at, record_sequence`;
const eventEntries = (args: string) => `select ${EVENT_COLUMNS} from app_private.credential_writes(${args})`;

const conflict = (message: string, errors?: FieldError[]) => new DomainError("conflict", message, { errors });
const notFound = (message: string) => new DomainError("not_found", message);
const isCredential = (actor: Actor | undefined) => actor?.kind === "token" || actor?.kind === "oauth";

/**
 * The activity row to undo, read under the member's RLS (another member's is 404). A credential
 * reaches only its own writes; the member's session reaches every credential's, by id. By default, the
 * credential's latest write not undone yet and not an undo's own (refused attempts and rows that went with
 * a deletion are not writes of their own), with the one before it for the refusal to name.
 */
async function pick(tx: Queryable, actor: Actor | undefined, activityId: string | undefined): Promise<ActivityRow[]> {
  const own = isCredential(actor);
  if (activityId) {
    const [row] = await tx.query<ActivityRow>(
      `select ${COLUMNS} from public.activity where id = $1
        union all ${eventEntries("'-infinity', null, null, $1, false, 1")}`,
      [activityId],
    );
    if (!row || (own && (row.actor_kind !== actor?.kind || row.actor_id !== actor?.id))) {
      throw notFound("No activity with this id is visible to this credential.");
    }
    return [row];
  }
  if (!own) throw new DomainError("invalid_request", "Name the activity to undo (activity_id).");
  const rows = await tx.query<ActivityRow>(
    `select * from (
       (select ${COLUMNS} from public.activity
         where actor_kind = $1 and actor_id = $2 and status is null and undone_at is null and undo_of is null
           and not cascaded
         order by created_at desc, id desc limit 2)
       union all ${eventEntries("'-infinity', $1, $2, null, true, 2")}
     ) latest order by created_at desc, id desc limit 2`,
    [actor?.kind, actor?.id],
  );
  if (!rows.length) throw notFound("This credential has no write left to undo.");
  return rows;
}

/** The records the ledger keeps no image of (registry/activity.ts), named for the refusal. */
const WITHOUT_IMAGE = listInProse(RESOURCES_WITHOUT_IMAGE.map(proseName));

/** Why a row cannot be undone at all, before anything is touched. */
function refusal(row: ActivityRow, source: ActivitySource | undefined): string | undefined {
  if (row.status !== null) return "This attempt was refused: it changed nothing, so there is nothing to undo.";
  if (row.undone_at) return `This write was already undone (${row.undone_at}).`;
  if (!row.recent) return `Writes can be undone for ${ACTIVITY_KEEP_DAYS} days; this one is older.`;
  if (row.operation.endsWith(".created") || row.operation.endsWith(".checked_in")) {
    return "A create is not undone (check-ins are append-only); delete the record instead.";
  }
  if (source && !source.image) {
    return `This write (${row.operation}) cannot be undone: the previous state of ${proseName(source.resource)} is not kept; write the old value back instead.`;
  }
  if (!row.before) return `This record's previous state is not kept (${WITHOUT_IMAGE}), so it cannot be undone.`;
  return undefined;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The columns whose value differs between the record now and as the write left it. */
const differing = (current: Record<string, unknown>, row: ActivityRow) =>
  Object.keys(current).filter((key) => JSON.stringify(current[key]) !== JSON.stringify(row.after?.[key]));

/** The record differs from the write's (`changed`, never empty), as a conflict that names how. */
function changedSince(current: Record<string, unknown>, changed: string[], row: ActivityRow): DomainError {
  const fields = changed.filter((key) => key !== "updated_at");
  // updated_at alone: written since, back to the values the write left; only its time tells.
  const named = fields.length ? fields : changed;
  return conflict(
    fields.length
      ? `The record changed since this write (${fields.join(", ")}); nothing was overwritten.`
      : `The record was written since this write (${named.join(", ")}), back to the values it left; nothing was overwritten.`,
    named.map((key) => ({
      pointer: `/${key}`,
      code: "changed_since",
      message: `"${key}" is now ${JSON.stringify(current[key])}; this write had left ${JSON.stringify(row.after?.[key] ?? null)}.`,
    })),
  );
}

/**
 * Puts back the columns an update changed, only when the record is as the write left it: for an entry
 * kept in the events, when the record's events since are only later writes and their undos
 * (app_private.unchanged_since; its row locked first, so no write slips in between); for an older entry of
 * public.activity, when the row equals the image it kept.
 */
async function undoUpdate(tx: Queryable, row: ActivityRow, table: string, writable: readonly string[]): Promise<void> {
  const columns = Object.keys(row.before ?? {}).filter((name) => writable.includes(name));
  if (!columns.length) throw conflict("This update changed nothing that can be put back.");
  const list = columns.map(quoteIdent).join(", ");
  const restore = `update ${table} t set (${list}) = (select ${list} from jsonb_populate_record(t, $1::jsonb)) where t.id = $2`;
  const current = async (lock: string) => {
    const [found] = await tx.query<{ r: Record<string, unknown> }>(
      `select to_jsonb(t) as r from ${table} t where t.id = $1${lock}`,
      [row.record_id],
    );
    if (!found) throw conflict("The record no longer exists (deleted since); nothing was changed.");
    return found.r;
  };
  if (row.record_sequence !== null) {
    const now = await current(" for update");
    const [check] = await tx.query<{ ok: boolean }>("select app_private.unchanged_since($1) as ok", [row.id]);
    // Events since that are not a write and its undo, yet the record reads exactly as the write left it, its
    // time included: a deletion undone since, which brings the row back as it was.
    const changed = check?.ok ? [] : differing(now, row);
    if (changed.length) throw changedSince(now, changed, row);
    await tx.query(restore, [JSON.stringify(row.before), row.record_id]);
    return;
  }
  const done = await tx.query<{ id: string }>(`${restore} and to_jsonb(t) = $3::jsonb returning t.id`, [
    JSON.stringify(row.before),
    row.record_id,
    JSON.stringify(row.after),
  ]);
  if (done.length) return;
  const now = await current("");
  throw changedSince(now, differing(now, row), row);
}

/** Brings a deleted row back with its id, and the rows that went with it; then reads it back under RLS. */
async function undoDelete(tx: Queryable, row: ActivityRow, table: string): Promise<string[]> {
  let ids: string[] | null;
  try {
    [{ ids }] = (await tx.query<{ ids: string[] | null }>("select app_private.restore_deleted($1) as ids", [
      row.id,
    ])) as [{ ids: string[] | null }];
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "23505")
      throw conflict("A record with this id exists again (restored already?); nothing was changed.");
    if (code === "23503") throw conflict("What this record belonged to is gone: undo that deletion first.");
    throw error;
  }
  if (!ids?.length) throw conflict("This deletion cannot be restored.");
  const [visible] = await tx.query<{ n: number }>(`select count(*)::int as n from ${table} where id = $1`, [
    row.record_id,
  ]);
  if (!visible?.n) throw notFound("The restored record would not be visible to this member; nothing was changed.");
  return ids;
}

/** Takes back one row, or refuses without touching anything. */
async function undoRow(tx: Queryable, row: ActivityRow, scopes: ReadonlySet<Scope>) {
  const source = activitySourceByOperation.get(row.operation);
  const why = refusal(row, source);
  if (why) throw conflict(why);
  if (!source || (row.record_table ?? source.table) !== source.table || !row.record_id)
    throw conflict("This write cannot be undone.");
  const scope = `${source.resource.scope}:write` as Scope;
  if (!scopes.has(scope))
    throw new DomainError("insufficient_scope", `Undoing this write needs the ${scope} scope.`, { scopes: [scope] });
  const [claim] = await tx.query<{ ok: boolean }>("select app_private.claim_activity_undo($1) as ok", [row.id]);
  if (!claim?.ok) throw conflict("This write was already undone.");
  // The writes the undo makes carry the activity they take back (a credential's undo is not undone by default).
  await tx.query("select set_config('pds.undo_of', $1, true)", [row.id]);
  let restored: string[];
  if (source.on === "update") {
    await undoUpdate(tx, row, source.table, source.writable);
    restored = [row.record_id];
  } else restored = await undoDelete(tx, row, source.table);
  return { activity_id: row.id, operation: row.operation, record_id: row.record_id, restored };
}

/** POST /activity/undo: takes back one update or delete of a credential (tool activity_undo). */
export const undoActivity: ToolHandler<"activity_undo"> = async ({ tx, input, actor, scopes }) => {
  const [row, before] = (await pick(tx, actor, input.activity_id)) as [ActivityRow, ActivityRow?];
  try {
    return await undoRow(tx, row, scopes);
  } catch (error) {
    if (input.activity_id || !(error instanceof DomainError) || error.code !== "conflict") throw error;
    // Reverting an older write instead would surprise whoever asked to undo the latest; the default
    // stays on it, and the refusal names the write before it for an undo by id.
    const older = before
      ? `the one before it is activity_id ${before.id}, ${before.operation}`
      : "none is left before it";
    throw conflict(
      `${error.message} It is this credential's latest write, and the default undo stays on it: name an older write with activity_id to undo that one instead (${older}).`,
      error.details.errors,
    );
  }
};
