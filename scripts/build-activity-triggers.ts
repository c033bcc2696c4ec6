// Writes the activity triggers from the registry (registry/activity.ts) as a new migration when they differ
// from the newest *_activity_triggers.sql. test/activity/ledger.test.ts fails while that file is stale.
// Run: node scripts/build-activity-triggers.ts [--version <14 digits>]   (default version: now, UTC)
import { writeGeneratedMigration } from "../lib/db/generated-migration.ts";
import { ACTIVITY_TRIGGERS_SUFFIX, activityTriggersSql } from "../lib/domain/activity/triggers-sql.ts";

console.log(writeGeneratedMigration(ACTIVITY_TRIGGERS_SUFFIX, activityTriggersSql(), process.argv));
