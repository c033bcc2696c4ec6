import os from "node:os";
import { type CpuSource, type CpuSpent, startCpuCount } from "./cpu.ts";
import type { WarmUp } from "./warm-up.ts";

/** What every measurement reports, whoever produced it (autocannon or the in-process driver loop). */
export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not the expected status, and transport errors; anything here is a finding. */
  unexpected: number;
  statuses: Record<string, number>;
  seconds: number;
  /** CPU per request in the application process(es) and in the database server's backends. */
  cpuMsPerRequest: { app: number; db: number; total: number };
  /** The machine's one-minute load average when the measurement ended (2 cores: above 2 is contention). */
  load1: number;
  /** The unmeasured load before it, for rows served by `next start` (warm-up.ts). */
  warmUp?: WarmUp;
}

export function cpuPerRequest(spent: CpuSpent, requests: number): Measurement["cpuMsPerRequest"] {
  const per = (ms: number) => (requests ? round(ms / requests, 3) : 0);
  return { app: per(spent.appMs), db: per(spent.dbMs), total: per(spent.appMs + spent.dbMs) };
}

export const load1 = () => round(os.loadavg()[0] ?? 0, 1);

/** The middle value (the upper of the two middle ones for an even count); 0 for none. */
export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs `work` from `concurrency` loops for `seconds`, timing each call (`i` counts calls, `loop` is the loop's own index). */
export async function closedLoop(
  label: string,
  concurrency: number,
  seconds: number,
  cpu: CpuSource,
  work: (i: number, loop: number) => Promise<void>,
): Promise<Measurement> {
  const stopCpu = await startCpuCount(cpu);
  const latencies: number[] = [];
  let failures = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (_: unknown, index: number) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await work(counter++, index);
        latencies.push(performance.now() - t0);
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const spent = await stopCpu();
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    requestsPerSecond: round(latencies.length / elapsed, 1),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    requests: latencies.length,
    unexpected: failures,
    statuses: failures ? { ok: latencies.length, failed: failures } : { ok: latencies.length },
    seconds: round(elapsed, 1),
    cpuMsPerRequest: cpuPerRequest(spent, latencies.length),
    load1: load1(),
  };
}
