/** Runs once when a Next server starts: refuse an unsafe production setup, then start upkeep. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/upkeep/startup");
  startServer();
}
