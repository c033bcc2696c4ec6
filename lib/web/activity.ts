import { ACTIVITY_KEEP_DAYS, activitySourceByOperation } from "../../registry/activity.ts";
import { capabilityByTool } from "../../registry/capabilities.ts";
import { grantLabels } from "../auth/oauth/grants.ts";
import { listTokens } from "../auth/tokens.ts";
import { asMember } from "../db/index.ts";

export interface ActivityEntry {
  id: string;
  actor_kind: "token" | "oauth";
  actor_id: string;
  surface: string;
  operation: string;
  record_id: string | null;
  status: number | null;
  error_code: string | null;
  undone_at: string | null;
  created_at: string;
  undoable: boolean;
  /** Rows that went with a deletion (a collection's items) and come back with its undo. */
  children: number;
}

/** A token, or an app (an OAuth grant) known from its activity: what the page filters by. */
export interface Credential {
  key: string;
  label: string;
}

export const PERIODS = {
  "1d": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": `Last ${ACTIVITY_KEEP_DAYS} days`,
} as const;
export type Period = keyof typeof PERIODS;

/** The most entries the page lists. */
const PAGE_ENTRIES = 200;

/**
 * The member's credentials' activity, newest first, read under the member's RLS: writes (rows that
 * went with a deletion are counted on it) and refused attempts. Filtered by credential ("token:<id>",
 * "oauth:<id>": the query is on actor kind and id, so apps appear as tokens do) and by period.
 */
export async function listActivity(
  memberId: string,
  filter: { credential?: string; period?: Period },
): Promise<ActivityEntry[]> {
  const [kind, id] = filter.credential?.split(":") ?? [];
  const days = filter.period === "1d" ? 1 : filter.period === "7d" ? 7 : ACTIVITY_KEEP_DAYS;
  // Deletions and refused attempts are rows of public.activity; creates and updates are the member's
  // events (app_private.credential_writes, 20261127223000_ledger_reads_member_log.sql).
  return asMember(memberId, (tx) =>
    tx.query<ActivityEntry>(
      `select id, actor_kind, actor_id, surface, operation, record_id, status, error_code,
              to_jsonb(undone_at) #>> '{}' as undone_at, to_jsonb(created_at) #>> '{}' as created_at, undoable, children
         from (
           (select a.id, a.actor_kind::text, a.actor_id, a.surface::text, a.operation, a.record_id, a.status, a.error_code,
                   a.undone_at, a.created_at,
                   (a.status is null and a.undone_at is null and a.before is not null
                    and (a.operation like '%.updated' or a.operation like '%.deleted')) as undoable,
                   (case when a.operation like '%.deleted' then
                      (select count(*)::int from public.activity c where c.cascaded and c.xact = a.xact and c.owner_id = a.owner_id)
                    else 0 end) as children
              from public.activity a
             where not a.cascaded and a.created_at > now() - make_interval(days => $1)
               and ($2::text is null or (a.actor_kind = $2 and a.actor_id = $3))
             order by a.created_at desc, a.id desc
             limit $4)
           union all
           select e.id, e.actor_kind, e.actor_id, e.surface, e.operation, e.record_id, null, null, e.undone_at, e.created_at,
                  (e.undone_at is null and e.before is not null and e.record_id is not null), 0
             from app_private.credential_writes(now() - make_interval(days => $1), $2, $3, null, false, $4::int) e
         ) entries
        order by created_at desc, id desc
        limit $4`,
      [days, kind ?? null, id ?? null, PAGE_ENTRIES],
    ),
  );
}

/**
 * The member's tokens and apps (OAuth grants), by the names the member knows them by: every live one,
 * and an ended one whose writes are listed.
 */
export async function listCredentials(memberId: string, entries: readonly ActivityEntry[]): Promise<Credential[]> {
  const tokens = (await listTokens(memberId)).map((token) => ({
    key: `token:${token.id}`,
    label: `Token “${token.name}” (…${token.last4})${token.revoked_at ? ", revoked" : ""}`,
  }));
  const seen = [...new Set(entries.filter((entry) => entry.actor_kind === "oauth").map((entry) => entry.actor_id))];
  const grants = await grantLabels(memberId, seen);
  // Every id seen names one of these: a grant is never deleted before its member (ended ones are kept).
  const apps = grants.map((grant) => ({
    key: `oauth:${grant.id}`,
    label: `App “${grant.client_name}”${grant.ended ? ", disconnected" : ""}`,
  }));
  return [...tokens, ...apps];
}

/** "Deleted item", or for a refused attempt the tool's summary ("Delete an item"). */
export function describeOperation(operation: string): string {
  const tool = capabilityByTool.get(operation);
  if (tool) return tool.summary;
  const [subject = operation, ...rest] = operation.split(".");
  const verb =
    rest.at(-1) === "deleted"
      ? "Deleted"
      : rest.at(-1) === "updated"
        ? "Updated"
        : rest.at(-1) === "checked_in"
          ? "Checked in"
          : "Created";
  return `${verb} ${subject.replace(/_/g, " ")}${rest.length > 1 ? " check-in" : ""}`;
}

/** Where the object can be read (its API URL), when it has one. */
export function objectHref(entry: ActivityEntry): string | undefined {
  if (!entry.record_id) return undefined;
  const source = activitySourceByOperation.get(entry.operation);
  const resource = source?.resource ?? toolResource(entry.operation);
  if (!resource) return undefined;
  if (resource.singleton) return `/api/v1/${resource.name}`;
  return resource.verbs.includes("get") ? `/api/v1/${resource.name}/${entry.record_id}` : undefined;
}

function toolResource(tool: string) {
  const source = capabilityByTool.get(tool)?.source;
  return source?.kind === "resource" ? source.resource : undefined;
}
