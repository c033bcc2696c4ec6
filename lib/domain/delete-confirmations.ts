import type { Capability } from "../../registry/capabilities.ts";
import { type ConfirmDeleteDirective, DELETE_CONFIRMATION_DAYS } from "../../registry/confirm-delete.ts";
import type { ResourceSpec } from "../../registry/define.ts";
import { notOwnerMessage } from "../../registry/ownership.ts";
import { type Caller, liveCheck } from "../auth/caller.ts";
import { asMember, asService, type Queryable } from "../db/index.ts";
import { DomainError } from "../errors/domain-error.ts";
import { toRecord } from "./record.ts";
import { fromStoreError } from "./store-errors.ts";

/** A delete waiting for the member, as the settings page shows it. */
export interface DeleteConfirmation {
  id: string;
  tool: string;
  resource: string;
  target_id: string;
  /** The row as the credential could read it when it asked, and how to name it to the member. */
  target: HeldRow;
  /** The token's name, or how the credential is known when it is not a token. */
  credential: string;
  created_at: string;
  expires_at: string;
}

export interface HeldRow {
  record: Record<string, unknown>;
  /** The row's name: its name or title, an item's catalog title. */
  label: string;
  /** What else goes or where it sits: "in Road trip", "with its 12 items". */
  context: string | null;
}

const pagePath = (id: string) => `/settings/confirmations?id=${id}`;

/**
 * Holds a delete for the member's confirmation. First a dry run under the credential's own RLS
 * and limits: the real delete statement runs and the transaction rolls back (queryLast), so the
 * answer is exactly the one the delete would give (404 for a row it cannot see, 403 not_owner for
 * one it can only read, the store's refusals) and nothing is deleted; then the row image it saw
 * is kept for the page.
 */
export async function holdDelete(
  caller: Caller,
  capability: Capability,
  id: string,
  /** The service's configured public origin (SITE_URL), never the request's Host: the member opens this link. */
  origin: string,
): Promise<ConfirmDeleteDirective> {
  if (capability.source.kind !== "resource") throw new Error(`${capability.tool} is not a resource delete`);
  const resource = capability.source.resource;
  const target = await dryRunDelete(caller, resource, id);
  const [row] = await asService((tx) =>
    tx.query<{ id: string; expires_at: string }>(
      `insert into app_private.delete_confirmations (member_id, token_id, credential, tool, resource, target_id, target, expires_at)
       values ($1, $2, coalesce((select client_name from app_private.oauth_grants where id = $9::uuid), $3),
               $4, $5, $6, $7::jsonb, now() + make_interval(days => $8))
       returning id, to_jsonb(expires_at) #>> '{}' as expires_at`,
      [
        caller.memberId,
        caller.kind === "token" ? caller.tokenId : null,
        caller.kind,
        capability.tool,
        resource.singular,
        id,
        JSON.stringify(target),
        DELETE_CONFIRMATION_DAYS,
        // An OAuth app is named to the member as on Connected apps, not as "oauth".
        caller.kind === "oauth" ? caller.grantId : null,
      ],
    ),
  );
  if (!row) throw new Error("delete confirmation insert returned nothing");
  return {
    type: "confirm_delete",
    confirmation_id: row.id,
    url: `${origin}${pagePath(row.id)}`,
    tool: capability.tool,
    resource: resource.singular,
    id,
    expires_at: new Date(row.expires_at).toISOString(),
  };
}

async function dryRunDelete(caller: Caller, resource: ResourceSpec, id: string): Promise<HeldRow> {
  const describe = resource.confirmDeleteSql ?? {};
  const [row] = await asMember(
    caller.memberId,
    (tx) =>
      tx.queryLast<{
        r: Record<string, unknown> | null;
        label: string | null;
        context: string | null;
        deleted: boolean;
      }>(
        `with target as (
           select to_jsonb(t) as r, ${describe.label ?? "null"}::text as label, ${describe.context ?? "null"}::text as context
           from ${resource.table} t where t.id = $1
         ),
         gone as (delete from ${resource.table} t where t.id = $1 returning t.id)
         select t.r, t.label, t.context, exists (select 1 from gone) as deleted
         from (select 1) one left join target t on true`,
        [id],
      ),
    { ...liveCheck(caller), collections: caller.limits?.collections },
  ).catch((error: unknown) => {
    throw fromStoreError(error);
  });
  if (!row?.r) throw new DomainError("not_found", `No ${resource.singular} with this id is visible to this token.`);
  if (!row.deleted) {
    const message = notOwnerMessage(resource, "delete");
    throw new DomainError("write_refused", `The store refused the write: ${message}`, {
      reason: { sqlstate: "42501", message, code: "not_owner" },
    });
  }
  const record = toRecord(resource, row.r);
  const own = record.name ?? record.title ?? record.url ?? record.handle;
  return { record, label: String(row.label ?? own ?? id), context: row.context };
}

const COLUMNS = `c.id, c.tool, c.resource, c.target_id, c.target, coalesce(t.name, c.credential) as credential,
  to_jsonb(c.created_at) #>> '{}' as created_at, to_jsonb(c.expires_at) #>> '{}' as expires_at`;

/** The member's pending deletes, newest first; lapsed ones are left out (and cleared here). */
export async function pendingDeletes(memberId: string): Promise<DeleteConfirmation[]> {
  return asService(async (tx) => {
    await tx.query("delete from app_private.delete_confirmations where member_id = $1 and expires_at <= now()", [
      memberId,
    ]);
    return tx.query<DeleteConfirmation>(
      `select ${COLUMNS} from app_private.delete_confirmations c
       left join app_private.access_tokens t on t.id = c.token_id
       where c.member_id = $1 order by c.created_at desc, c.id desc`,
      [memberId],
    );
  });
}

/** Takes one pending delete of this member off the list (to carry out or to dismiss); null when none is live. */
export async function takeDelete(id: string, memberId: string): Promise<DeleteConfirmation | null> {
  const [row] = await asService((tx) =>
    tx.query<DeleteConfirmation>(
      `with taken as (
         delete from app_private.delete_confirmations where id = $1 and member_id = $2 returning *
       )
       select ${COLUMNS} from taken c left join app_private.access_tokens t on t.id = c.token_id
       where c.expires_at > now()`,
      [id, memberId],
    ),
  );
  return row ?? null;
}

/** Upkeep: held deletes past their time are never carried out, so they go. */
export async function purgeLapsedDeletes(tx: Queryable): Promise<number> {
  return (await tx.query("delete from app_private.delete_confirmations where expires_at <= now() returning id")).length;
}
