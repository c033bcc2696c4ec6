// The background loops on their own, for deployments that run them apart from the web servers
// (start those with WEBHOOKS_WORKER=off CATALOG_WORKER=off): webhook deliveries and the catalog's
// completion of partial entries. Run: npm run worker
import { startCompletionWorker } from "../lib/catalog/completion.ts";
import { closeDb } from "../lib/db/index.ts";
import { startWebhookWorker } from "../lib/webhook-delivery/worker.ts";

const workers = [startWebhookWorker(), startCompletionWorker()];
console.log("[worker] webhook deliveries and catalog completions running; Ctrl-C stops them");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all(workers.map((worker) => worker.stop()))
      .then(closeDb)
      .then(() => process.exit(0));
  });
}
