/**
 * Runs once when a Next server starts: the services a server runs beside its requests
 * (lib/upkeep/services.ts). Under server.ts they have started already, from its own modules.
 */
export async function register(): Promise<void> {
  // Not settings: NEXT_RUNTIME is a constant Next's bundler writes in (it is not in the environment at run time,
  // so read through lib/config it was undefined and nothing started); both are read as Next's guide writes them.
  // biome-ignore lint/style/noProcessEnv: compile-time constants of Next, not the environment
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServices } = await import("./lib/upkeep/services.ts");
  await startServices();
}
