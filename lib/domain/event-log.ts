import { EVENT_KINDS, EVENT_TYPES } from "../../registry/events.ts";
import { eventReadScope } from "../../registry/operations/events.ts";
import { DEFAULT_PAGE_SIZE } from "../../registry/pagination.ts";
import type { Scope } from "../../registry/scopes.ts";
import { DomainError } from "../errors/domain-error.ts";
import { type EventRow, eventEntry } from "./webhooks/payload.ts";
import type { ToolHandler } from "./context.ts";
import { decodeOpaqueCursor, encodeOpaqueCursor } from "../http/pagination.ts";

/** A place in the log: the writing transaction's id (xid8) and the insert order, both as digits. */
interface EventCursor {
  txid: string;
  position: string;
}

const digits = (value: unknown): value is string => typeof value === "string" && /^\d{1,20}$/.test(value);
const START: EventCursor = { txid: "0", position: "0" };

const encodeEventCursor = (cursor: EventCursor) => encodeOpaqueCursor(["ev", cursor.txid, cursor.position]);

const decodeEventCursor = (value: string): EventCursor =>
  decodeOpaqueCursor(value, ([tag, txid, position, ...rest]) =>
    tag === "ev" && digits(txid) && digits(position) && rest.length === 0 ? { txid, position } : null,
  );

/** The kinds asked for (all by default), each of which the token's scopes must allow. */
function kindsFor(types: string | undefined, scopes: ReadonlySet<Scope>): string[] {
  if (types === undefined)
    return EVENT_KINDS.filter((kind) => scopes.has(eventReadScope(kind.type) as Scope)).map((k) => k.type);
  const asked = [...new Set(types.split(","))];
  const unknown = asked.filter((type) => !EVENT_TYPES.includes(type));
  if (unknown.length) {
    throw new DomainError("invalid_request", `Unknown event kind: ${unknown.join(", ")}.`, {
      errors: [{ pointer: "/types", code: "unknown_event_type", message: `Known kinds: ${EVENT_TYPES.join(", ")}.` }],
    });
  }
  const missing = [
    ...new Set(asked.map((type) => eventReadScope(type) as Scope).filter((scope) => !scopes.has(scope))),
  ];
  if (missing.length) {
    throw new DomainError("insufficient_scope", `This token lacks ${missing.join(", ")}, needed for the kinds asked.`, {
      scopes: missing,
    });
  }
  return asked;
}

type LogRow = { r: EventRow & { txid: string; log_position: number } };

/**
 * One page of the member's events after the cursor, in (txid, log_position) order, read under RLS.
 * Only events whose transaction is older than the oldest one still running are answered
 * (pg_snapshot_xmin): all of those have committed or rolled back, so nothing can later appear
 * before the cursor handed out (docs/decisions/0018-event-log.md). A member is the event's
 * member_id or its other_member_id (the other side of a message or follow): one index each, merged.
 */
export const listEvents: ToolHandler<"events_list"> = async ({ tx, memberId, scopes, input }) => {
  const types = kindsFor(input.types, scopes);
  const cursor = input.after ? decodeEventCursor(input.after) : START;
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  const side = (column: string) =>
    `(select ev.id, ev.type, ev.record_id, ev.data, ev.created_at, ev.record_sequence, ev.txid, ev.log_position
        from app_private.webhook_events ev
       where ev.${column} = $1 and (ev.txid, ev.log_position) > ($2::xid8, $3::bigint)
         and ev.txid < pg_snapshot_xmin(pg_current_snapshot()) and ev.type = any ($4::text[])
       order by ev.txid, ev.log_position limit $5)`;
  const rows = types.length
    ? await tx.queryLast<LogRow>(
        `select to_jsonb(t) as r from (${side("member_id")} union all ${side("other_member_id")}) t
          order by t.txid, t.log_position limit $5`,
        [memberId, cursor.txid, cursor.position, types, limit + 1],
      )
    : [];
  const page = rows.slice(0, limit).map((row) => row.r);
  const last = page.at(-1);
  return {
    data: page.map((event) => eventEntry(event).entry),
    has_more: rows.length > limit,
    next_cursor: encodeEventCursor(last ? { txid: String(last.txid), position: String(last.log_position) } : cursor),
  };
};
