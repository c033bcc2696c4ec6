// Writes the webhook event triggers migration from the registry.
// Run: node scripts/build-event-triggers.ts   (test/webhooks/event-triggers.test.ts fails when it is stale)
import fs from "node:fs";
import { EVENT_TRIGGERS_FILE, eventTriggersSql } from "../lib/webhook-delivery/event-triggers-sql.ts";

fs.writeFileSync(EVENT_TRIGGERS_FILE, eventTriggersSql());
console.log(`wrote ${EVENT_TRIGGERS_FILE}`);
