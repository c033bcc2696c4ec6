import { setting } from "./lib/config/env.ts";

/**
 * Runs once when a Next server starts: refuse an unsafe production setup, start upkeep, then the
 * webhook delivery loop in this process (unless WEBHOOKS_WORKER=off).
 */
export async function register(): Promise<void> {
  if (setting("NEXT_RUNTIME") !== "nodejs" || setting("NEXT_PHASE") === "phase-production-build") return;
  const { startServer } = await import("./lib/upkeep/startup.ts");
  startServer();
  const { startInProcessWorker } = await import("./lib/webhook-delivery/worker.ts");
  startInProcessWorker();
}
