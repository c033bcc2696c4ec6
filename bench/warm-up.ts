import { settings } from "./config.ts";
import type { Measurement } from "./stats.ts";

export interface WarmUp {
  seconds: number;
  /** Requests/s of each unmeasured window, in order: the climb, then the level it settled at. */
  windows: number[];
}

/**
 * Unmeasured load at the measurement's own concurrency until requests/s stops climbing: two windows
 * in a row no more than 5% above the best before them (one slow window is noise on two cores), or
 * settings.warmupMaxSeconds spent. A fresh
 * `next start` takes 10-20 s under load to reach its level (JIT tiers, heap sizing, pools and
 * caches): the static floor climbed 2180 → 3200 req/s, the naive route 817 → 1450, the list
 * 838 → 1630 in 4-s windows (bench/results/2026-11-23-warm-up.md). A row measured before that
 * compared one server's start-up with another's level, depending on what ran on it before.
 */
export async function warmUntilSteady(window: (seconds: number) => Promise<Measurement>): Promise<WarmUp> {
  const windows: number[] = [];
  let spent = 0;
  let flat = 0;
  while (spent < settings.warmupMaxSeconds && flat < 2) {
    const m = await window(settings.warmupWindowSeconds);
    spent += settings.warmupWindowSeconds;
    flat = windows.length && m.requestsPerSecond <= Math.max(...windows) * 1.05 ? flat + 1 : 0;
    windows.push(m.requestsPerSecond);
  }
  return { seconds: spent, windows };
}
