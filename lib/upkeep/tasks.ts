import { expireUnusedClients } from "../auth/oauth/clients.ts";
import { purgeExpiredOAuthRows } from "../auth/oauth/tokens.ts";
import { ACTIVITY_KEEP_DAYS } from "../../registry/activity.ts";
import { purgeExpiredSessions } from "../auth/sessions.ts";
import type { Queryable } from "../db/index.ts";
import { purgeExpiredResolverCache } from "../catalog/providers/durable-cache.ts";
import { purgeLapsedDeletes } from "../domain/delete-confirmations.ts";
import { purgeExpiredIdempotencyKeys } from "../pipeline/idempotency.ts";
import { purgeWebhookDeliveries } from "../webhook-delivery/worker.ts";

/** One piece of periodic clean-up: runs as the service in its own transaction, answers rows purged. */
export interface UpkeepTask {
  name: string;
  run(tx: Queryable): Promise<number>;
}

/**
 * Everything the service purges on a schedule. Add a task here and both the cron route and the
 * in-process timer run it. Each task removes only what can never be used again.
 */
export const UPKEEP_TASKS: UpkeepTask[] = [
  // Replays are promised for 24 h; an expired key is never read again.
  { name: "expired_idempotency_keys", run: (tx) => purgeExpiredIdempotencyKeys(new Date(), tx) },
  // Built-in cookie sessions past their 30 days, and Supabase session records (ended or not) past theirs.
  { name: "expired_sessions", run: purgeExpiredSessions },
  {
    // An upload URL lives 10 minutes. A day after that, a pending row is abandoned: for the local
    // driver nothing arrived; on S3 the bytes (if any) were never used (a bucket lifecycle rule
    // removes the object). Completed uploads are kept: rows point at them.
    name: "abandoned_uploads",
    run: async (tx) =>
      (
        await tx.query(
          "delete from app_private.uploads where status = 'pending' and expires_at <= now() - interval '1 day' returning key",
        )
      ).length,
  },
  // Webhook deliveries and events (the event log) are kept 30 days; pending deliveries and their events never purged.
  { name: "webhook_deliveries", run: purgeWebhookDeliveries },
  // A credential's activity, with the previous row images undo needs, is kept 30 days (registry/activity.ts).
  {
    name: "old_activity",
    run: async (tx) =>
      (
        await tx.query(
          `delete from public.activity where created_at < now() - interval '${ACTIVITY_KEEP_DAYS} days' returning id`,
        )
      ).length,
  },
  // The resolver's cached provider answers past their TTL: an expired row is never read again.
  { name: "expired_resolver_cache", run: purgeExpiredResolverCache },
  // Deletes a "confirm destructive" credential asked for, past their 7 days: never carried out.
  { name: "lapsed_delete_confirmations", run: purgeLapsedDeletes },
  // OAuth: tokens and codes a day past expiry (a used refresh token is kept until then, so its reuse
  // is still recognised); dynamically registered clients unused for 30 days with no live grant.
  { name: "expired_oauth_tokens", run: purgeExpiredOAuthRows },
  { name: "unused_oauth_clients", run: expireUnusedClients },
];
