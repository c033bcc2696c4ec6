// Preloaded into a restarted server process (NODE_OPTIONS=--import=./test/support/webhook-clock-ahead.ts):
// its webhook clock runs WEBHOOK_CLOCK_AHEAD_MS ahead, as if the restart came after the dead
// worker's claim lease ran out, without waiting the lease out in a test.
import { webhookClock } from "../../lib/domain/webhooks/clock.ts";

const ahead = Number(process.env.WEBHOOK_CLOCK_AHEAD_MS ?? 0);
webhookClock.now = () => new Date(Date.now() + ahead);
