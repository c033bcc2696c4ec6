// The webhook delivery loop on its own, for deployments that run it apart from the web servers
// (start those with WEBHOOKS_WORKER=off). Run: npm run worker
import { closeDb } from "../lib/db/index.ts";
import { startWebhookWorker } from "../lib/webhook-delivery/worker.ts";

const worker = startWebhookWorker();
console.log("[webhooks] worker running; Ctrl-C stops it");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void worker.stop().then(closeDb).then(() => process.exit(0));
  });
}
