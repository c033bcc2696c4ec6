import type { Capability } from "../../registry/capabilities.ts";
import { isUuid } from "../../registry/fields.ts";
import { actorOf, type Caller } from "../auth/caller.ts";
import { type Actor, asService } from "../db/index.ts";
import { ApiError } from "../http/problem.ts";

/** Refusals not worth a row: no credential was proven (401), or the caller is being throttled (429). */
const UNRECORDED = new Set([401, 429]);

/**
 * A write a credential attempted and the service refused or failed (403 missing scope, 404, 409, 422,
 * 5xx…) joins its activity with the error code. Only on the error path, in its own short transaction as
 * the service: the successful path pays nothing here. A failure to record is logged, never the answer.
 */
export async function recordRefusal(
  caller: Caller,
  surface: Actor["surface"],
  capability: Capability,
  rawInput: unknown,
  path: Readonly<Record<string, string>> | undefined,
  error: unknown,
): Promise<void> {
  const actor = actorOf(caller, surface);
  if ((actor.kind !== "token" && actor.kind !== "oauth") || !actor.id) return;
  if (capability.annotations.readOnlyHint || capability.source.kind === "directive") return;
  const status = error instanceof ApiError ? error.status : 500;
  if (UNRECORDED.has(status)) return;
  const code = error instanceof ApiError ? error.code : "internal";
  const given = path?.id ?? (rawInput as { id?: unknown } | null)?.id;
  const recordId = isUuid(given) ? given : null;
  try {
    await asService((tx) =>
      tx.query(
        `insert into public.activity (owner_id, actor_kind, actor_id, surface, operation, record_id, status, error_code)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [caller.memberId, actor.kind, actor.id, surface, capability.tool, recordId, status, code],
      ),
    );
  } catch (failure) {
    console.error("activity: could not record a refused write", failure);
  }
}
