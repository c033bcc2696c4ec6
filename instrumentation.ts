/**
 * Runs once when a Next server starts: answers send their headers with their body
 * (lib/http/headers-with-body.ts), refuse an unsafe production setup, start upkeep, then the
 * webhook delivery loop in this process (unless WEBHOOKS_WORKER=off), and the catalog's background
 * completion of partial entries (unless CATALOG_WORKER=off).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  (await import("./lib/http/headers-with-body.ts")).sendHeadersWithBody();
  const { startServer } = await import("./lib/upkeep/startup.ts");
  startServer();
  const { startInProcessWorker } = await import("./lib/webhook-delivery/worker.ts");
  startInProcessWorker();
  const { startInProcessCompletionWorker } = await import("./lib/catalog/completion.ts");
  startInProcessCompletionWorker();
}
