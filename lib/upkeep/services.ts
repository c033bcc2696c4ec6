// Kept on globalThis: Next's bundle holds its own copy of lib/, server.ts another. server.ts asks
// first, before Next runs instrumentation.ts, so what is below loads once, in its copy; Next's copy
// of these modules (upkeep, the delivery worker, the catalog's completion) then never loads.
type Holder = typeof globalThis & { __pdsServices?: Promise<void> };

/**
 * What a server starts beside its requests, once per process: refuse an unsafe production setup,
 * then upkeep, the webhook delivery loop (unless WEBHOOKS_WORKER=off) and the catalog's background
 * completion of partial entries (unless CATALOG_WORKER=off).
 */
export function startServices(): Promise<void> {
  const holder = globalThis as Holder;
  holder.__pdsServices ??= (async () => {
    const { startServer } = await import("./startup.ts");
    startServer();
    const { startInProcessWorker } = await import("../webhook-delivery/worker.ts");
    startInProcessWorker();
    const { startInProcessCompletionWorker } = await import("../catalog/completion.ts");
    startInProcessCompletionWorker();
  })();
  return holder.__pdsServices;
}
