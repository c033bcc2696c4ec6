/** Next calls register() once when a server starts: the webhook delivery loop runs in that process. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startInProcessWorker } = await import("./lib/webhook-delivery/worker.ts");
  startInProcessWorker();
}
