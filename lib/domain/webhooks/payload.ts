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
 * The body POSTed, and an entry of the event log (GET /events): {id, type, created_at, sequence, data};
 * over 256 KB, data is the record's address instead.
 */
export function eventBody(event: EventRow): string {
  const kind = eventKindByType.get(event.type);
  const envelope = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    sequence: event.record_sequence ?? null,
  };
  const body = JSON.stringify({ ...envelope, data: dataOf(kind, event.data) });
  if (Buffer.byteLength(body) <= WEBHOOK_LIMITS.maxPayloadBytes) return body;
  const id = String(event.record_id ?? event.data.id);
  return JSON.stringify({ ...envelope, data: { id, url: addressOf(kind, id) } });
}
