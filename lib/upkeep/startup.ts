import { type Env, setting } from "../config/env.ts";
import { refuseUnsafeProduction } from "../db/config.ts";
import { startUpkeepTimer } from "./run.ts";

/**
 * At server start: in production (NODE_ENV=production on a serverless host, or
 * REQUIRE_SERVER_DATABASE=1) a missing DATABASE_URL or signing secret stops the process with a
 * message naming the variable, instead of serving on state that is lost. Then, on a long-running
 * server (not a serverless host, where Vercel Cron calls /api/cron/upkeep), the hourly upkeep timer.
 */
export function startServer(env?: Env): void {
  refuseUnsafeProduction(env);
  if (!setting("VERCEL", env)) startUpkeepTimer(env);
}
