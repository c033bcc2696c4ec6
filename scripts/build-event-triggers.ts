// Writes the webhook event triggers from the registry as a new migration when they differ from the newest
// *_webhook_event_triggers.sql (an applied migration is never rewritten). test/webhooks/event-triggers.test.ts
// fails while that file is stale.
// Run: node scripts/build-event-triggers.ts [--version <14 digits>]   (default version: now, UTC)
import { writeGeneratedMigration } from "../lib/db/generated-migration.ts";
import { EVENT_TRIGGERS_SUFFIX, eventTriggersSql } from "../lib/webhook-delivery/event-triggers-sql.ts";

console.log(writeGeneratedMigration(EVENT_TRIGGERS_SUFFIX, eventTriggersSql(), process.argv));
