import { type Env, setting } from "../config/env.ts";
import { asService } from "../db/index.ts";
import { UPKEEP_TASKS, type UpkeepTask } from "./tasks.ts";

export interface UpkeepReport {
  /** Rows purged per task; a task that failed has an error instead, and the others still run. */
  tasks: Record<string, { purged: number } | { error: string }>;
}

export async function runUpkeep(tasks: readonly UpkeepTask[] = UPKEEP_TASKS): Promise<UpkeepReport> {
  const report: UpkeepReport = { tasks: {} };
  for (const task of tasks) {
    try {
      report.tasks[task.name] = { purged: await asService((tx) => task.run(tx)) };
    } catch (error) {
      console.error(`upkeep task ${task.name} failed`, error);
      report.tasks[task.name] = { error: (error as Error).message };
    }
  }
  return report;
}

const HOUR = 60 * 60 * 1000;
type Holder = typeof globalThis & { __pdsUpkeepTimer?: ReturnType<typeof setInterval> };

/**
 * The embedded default has no scheduler in front of it, so the server purges hourly by itself
 * (off with UPKEEP_TIMER=off; a serverless host uses the cron route instead). The timer does not
 * keep the process alive, and starts once per process however often it is asked.
 */
export function startUpkeepTimer(env?: Env): boolean {
  const holder = globalThis as Holder;
  if (!setting("UPKEEP_TIMER", env) || holder.__pdsUpkeepTimer) return false;
  holder.__pdsUpkeepTimer = setInterval(() => {
    runUpkeep().catch((error) => console.error("upkeep failed", error));
  }, HOUR);
  holder.__pdsUpkeepTimer.unref();
  return true;
}
