import { type EventKind, eventKindByType, WEBHOOK_LIMITS } from "../../../registry/events.ts";
import { toRecord } from "../record.ts";
import { siteUrlFrom } from "../../http/site-url.ts";

export interface EventRow {
  id: string;
  type: string;
  record_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
  /** The record's sequence number (app_private.stamp_webhook_event); null on events written before it existed. */
  record_sequence?: number | null;
}

/** The data of an event: the row as committed, shaped as the REST API answers the record. */
function dataOf(kind: EventKind | undefined, row: Record<string, unknown>): Record<string, unknown> {
  if (!kind) return row;
  if (kind.projected) {
    const keys = Object.keys((kind.data as unknown as { shape: Record<string, unknown> }).shape);
    return Object.fromEntries(keys.map((key) => [key, row[key] ?? null]));
  }
  return toRecord(kind.resource, row);
}

function addressOf(kind: EventKind | undefined, id: string): string {
  if (!kind) return `${siteUrlFrom()}/api/v1`;
  const resource = kind.resource;
  if (kind.page) return `${siteUrlFrom()}${kind.page}`;
  if (kind.projected) return `${siteUrlFrom()}/api/v1/${resource.name}/${String(id)}`;
  return resource.singleton
    ? `${siteUrlFrom()}/api/v1/${resource.name}`
    : `${siteUrlFrom()}/api/v1/${resource.name}/${id}`;
}

/**
 * An event as POSTed and as an entry of the event log (GET /events): {id, type, created_at, sequence,
 * data}; over 256 KB, data is the record's address instead. `body` is the entry serialised, so the log
 * answers the entry without parsing the body back.
 */
export function eventEntry(event: EventRow): { entry: Record<string, unknown>; body: string } {
  const kind = eventKindByType.get(event.type);
  const envelope = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    sequence: event.record_sequence ?? null,
  };
  const entry = { ...envelope, data: dataOf(kind, event.data) };
  const body = JSON.stringify(entry);
  if (Buffer.byteLength(body) <= WEBHOOK_LIMITS.maxPayloadBytes) return { entry, body };
  const id = String(event.record_id ?? event.data.id);
  const small = { ...envelope, data: { id, url: addressOf(kind, id) } };
  return { entry: small, body: JSON.stringify(small) };
}

/** The body POSTed for an event (eventEntry's body). */
export const eventBody = (event: EventRow): string => eventEntry(event).body;
