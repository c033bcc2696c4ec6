// Preloaded into the server (server.ts, or `next start`) by settle.ts (BENCH_GC=1, through
// NODE_OPTIONS=--import): every GC pause of the process, one line each in BENCH_GC_LOG, so
// settle.ts can set the pauses beside a window's latency.
// The pauses stop every request in flight at once; this shows how much of a p99 they can explain.
import fs from "node:fs";
import { constants, type PerformanceEntry, PerformanceObserver, performance } from "node:perf_hooks";

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak-callbacks", // one word: settle.ts splits lines on spaces
};
const file = process.env.BENCH_GC_LOG;
if (file) {
  let lines: string[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Node's gc entries carry their kind in `detail`, which the PerformanceEntry type does not declare.
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1;
      lines.push(
        `${Math.round(performance.timeOrigin + entry.startTime)} ${KINDS[kind] ?? "other"} ${entry.duration.toFixed(2)}`,
      );
    }
  }).observe({ entryTypes: ["gc"] });
  setInterval(() => {
    if (lines.length === 0) return;
    fs.appendFileSync(file, `${lines.join("\n")}\n`);
    lines = [];
  }, 500).unref();
}
