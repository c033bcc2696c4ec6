/**
 * Runs once when a Next server starts: refuse an unsafe production setup, start upkeep, then the
 * webhook delivery loop in this process (unless WEBHOOKS_WORKER=off), and the catalog's background
 * completion of partial entries (unless CATALOG_WORKER=off).
 */
export async function register(): Promise<void> {
  // Not settings: NEXT_RUNTIME is a constant Next's bundler writes in (it is not in the environment at run time,
  // so read through lib/config it was undefined and nothing started); both are read as Next's guide writes them.
  // biome-ignore lint/style/noProcessEnv: compile-time constants of Next, not the environment
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServer } = await import("./lib/upkeep/startup.ts");
  startServer();
  const { startInProcessWorker } = await import("./lib/webhook-delivery/worker.ts");
  startInProcessWorker();
  const { startInProcessCompletionWorker } = await import("./lib/catalog/completion.ts");
  startInProcessCompletionWorker();
}
