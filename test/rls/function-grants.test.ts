import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";

/**
 * Every function a member may call directly, by name. Security definer functions run with the
 * owner's rights, so each one here must check the caller itself; anything else stays uncallable.
 * Adding a function to this list is a security decision: say why in its migration.
 */
const MEMBER_CALLABLE = [
  "app_private.caller_timezone",
  "app_private.catalog_normalize",
  "app_private.claim_activity_undo",
  "app_private.complete_idempotent_request",
  "app_private.credential_collections",
  "app_private.credential_writes",
  "app_private.mint_upload",
  "app_private.ping_webhook_endpoint",
  "app_private.redeliver_webhook_events",
  "app_private.restore_deleted",
  "app_private.retry_webhook_delivery",
  "app_private.search_catalog",
  "app_private.set_webhook_secret",
  "app_private.streak_current_count",
  "app_private.unchanged_since",
  "auth.role",
  "auth.uid",
  "public.check_in_streak",
];

async function callableBy(role: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.query<{ fn: string }>(
    `select distinct n.nspname || '.' || p.proname as fn
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('app_private', 'public', 'auth') and has_function_privilege($1, p.oid, 'execute')
     order by 1`,
    [role],
  );
  return rows.map((row) => row.fn);
}

describe("function privileges", () => {
  it("lets members call only the functions granted to them by name", async () => {
    expect(await callableBy("authenticated")).toEqual(MEMBER_CALLABLE);
  });

  it("lets anonymous callers run none of ours", async () => {
    expect(await callableBy("anon")).toEqual(["auth.role", "auth.uid"]);
  });
});
