import fs from "node:fs";
import path from "node:path";
import type { Measurement } from "./stats.ts";
import { round } from "./stats.ts";
import { RAW_LABEL, UNPREPARED_LABEL } from "./ceiling.ts";
import type { ColdStart } from "./cold-start.ts";
import type { WebhookResult } from "./webhooks.ts";

/** The server's resident memory: started, after the API rows, and after each soak round. */
export interface Memory {
  afterStartMb: number;
  afterApiMb: number;
  soak: { minutes: number; rssMb: number }[];
}

export interface GrowthStep {
  rowsPerMember: number;
  tableSizes: Record<string, number>;
  list: Measurement;
  /** GET /search as that member (the catalog is everyone's: their own rows should not move it). */
  search?: Measurement;
  explain: Record<string, string>;
  plans: Record<string, string>;
}

export interface Bounds {
  /** Next's static JSON route (bench/floor-app). */
  floor: Measurement;
  /** The naive route (bench/floor-app), Postgres only. */
  naive?: Measurement;
}

export interface DatabaseResult {
  database: string;
  tableSizes: Record<string, number>;
  ceiling: Measurement[];
  /** Measured before and after the API rows (run.ts); ratios take their mean. */
  bounds: Bounds[];
  /** Resident memory of the server (server.ts) around the API pass. */
  memory?: Memory;
  coldStarts?: ColdStart[];
  api: Measurement[];
  skipped: string[];
  growth: GrowthStep[];
  webhooks?: WebhookResult;
  /** EXPLAIN (ANALYZE, BUFFERS) of each statement of a search, on the seeded catalog (explain.ts). */
  searchPlans?: { query: string; summaries: string[]; plans: string[] }[];
  loadAverage: { before: number[]; after: number[] };
}

/** One bound over its measurements: mean requests/s, p99 and CPU per request. */
export interface Bound {
  requestsPerSecond: number;
  p99Ms: number;
  cpuMsPerRequest: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function bound(measurements: (Measurement | undefined)[]): Bound | undefined {
  const ms = measurements.filter((m): m is Measurement => m !== undefined);
  if (!ms.length) return undefined;
  return {
    requestsPerSecond: mean(ms.map((m) => m.requestsPerSecond)),
    p99Ms: mean(ms.map((m) => m.p99Ms)),
    cpuMsPerRequest: mean(ms.map((m) => m.cpuMsPerRequest.total)),
  };
}

export const floorOf = (result: DatabaseResult) => bound(result.bounds.map((b) => b.floor));
export const naiveOf = (result: DatabaseResult) => bound(result.bounds.map((b) => b.naive));

/**
 * API against the bounds, same run: throughput as a share of the bound (÷), CPU per request as a
 * multiple of the bound's (×, the steadier of the two on a shared machine), and p99 as a multiple
 * of the floor's (issue 14 asked for 60 ms where its floor answered at p99 40 ms: 1.5×).
 */
export function ratios(result: DatabaseResult) {
  const raw = result.ceiling.find((m) => m.label === RAW_LABEL) ?? result.ceiling[0];
  const unprepared = result.ceiling.find((m) => m.label === UNPREPARED_LABEL);
  const floor = floorOf(result);
  const naive = naiveOf(result);
  const share = (m: Measurement, b?: { requestsPerSecond: number }) =>
    b?.requestsPerSecond ? round(m.requestsPerSecond / b.requestsPerSecond) : null;
  const times = (m: Measurement, b?: Bound) =>
    b?.cpuMsPerRequest ? round(m.cpuMsPerRequest.total / b.cpuMsPerRequest, 1) : null;
  return result.api.map((m) => ({
    label: m.label,
    throughputOfRaw: share(m, raw),
    ...(unprepared ? { throughputOfUnpreparedRaw: share(m, unprepared) } : {}),
    throughputOfFloor: share(m, floor),
    throughputOfNaive: share(m, naive),
    cpuTimesFloor: times(m, floor),
    cpuTimesNaive: times(m, naive),
    p99TimesFloor: floor?.p99Ms ? round(m.p99Ms / floor.p99Ms, 2) : null,
  }));
}

const pad = (value: unknown, width: number) => {
  const text = value === null || value === undefined || value === "" ? "–" : String(value);
  return width < 0 ? text.padEnd(-width) : text.padStart(width);
};

const COLUMNS: [string, number][] = [
  ["", -40],
  ["req/s", 7],
  ["p50 ms", 7],
  ["p99 ms", 7],
  ["CPU ms/req", 13],
  ["÷raw", 6],
  ["÷floor", 7],
  ["÷naive", 7],
  ["×floor CPU", 11],
  ["load", 5],
  ["bad", 5],
];

function line(values: unknown[]): string {
  return COLUMNS.map(([, width], i) => pad(values[i], width)).join(" ");
}

function row(m: Measurement, r?: ReturnType<typeof ratios>[number]): string {
  const cpu = `${m.cpuMsPerRequest.total} (${m.cpuMsPerRequest.db})`;
  return line([
    m.label,
    m.requestsPerSecond,
    m.p50Ms,
    m.p99Ms,
    cpu,
    r?.throughputOfRaw,
    r?.throughputOfFloor,
    r?.throughputOfNaive,
    r?.cpuTimesFloor,
    m.load1,
    m.unexpected || "",
  ]);
}

export function printDatabase(result: DatabaseResult): void {
  const header = line(COLUMNS.map(([title], i) => (i === 0 ? `[${result.database}]` : title)));
  console.log(`\n${header}\n${"-".repeat(header.length)}`);
  for (const m of result.ceiling) console.log(row(m));
  const when = (i: number) => (i === 0 ? "before the API rows" : "after");
  for (const [i, b] of result.bounds.entries())
    console.log(row({ ...b.floor, label: `${b.floor.label} (${when(i)})` }));
  for (const [i, b] of result.bounds.entries()) {
    if (b.naive) console.log(row({ ...b.naive, label: `${b.naive.label} (${when(i)})` }));
  }
  const byLabel = new Map(ratios(result).map((r) => [r.label, r]));
  for (const m of result.api) console.log(row(m, byLabel.get(m.label)));
  for (const why of result.skipped) console.log(`  skipped: ${why}`);
  for (const r of byLabel.values()) {
    if (r.throughputOfUnpreparedRaw !== undefined)
      console.log(`  ${r.label} ÷ raw loop through PGlite's own query(): ${r.throughputOfUnpreparedRaw}`);
  }
  for (const { query, summaries } of result.searchPlans ?? []) {
    console.log(`  search plan, q=${query}: ${summaries.join("; ")}`);
  }
  if (result.growth.length) {
    console.log(
      "\n  growth: GET /collections and GET /search as one member who owns N rows in collections and in items; p50 × the first step's",
    );
    const [first] = result.growth;
    const times = (m: Measurement | undefined, base: Measurement | undefined) =>
      m && base ? `p50 ×${round(m.p50Ms / base.p50Ms, 2)}` : "";
    for (const step of result.growth) {
      console.log(
        `${row({ ...step.list, label: `  list, ${step.rowsPerMember} rows` })}   ${times(step.list, first?.list)}   ${step.plans.collections_list ?? ""}`,
      );
      if (step.search)
        console.log(
          `${row({ ...step.search, label: `  search, ${step.rowsPerMember} rows` })}   ${times(step.search, first?.search)}`,
        );
    }
  }
  const sizes = Object.entries(result.tableSizes)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t.replace(/^public\./, "")} ${n}`);
  const warmed = [...result.ceiling, ...result.bounds.flatMap((b) => [b.floor, b.naive]), ...result.api].flatMap((m) =>
    m?.warmUp ? [`${m.label}: ${m.warmUp.windows.join(" → ")}`] : [],
  );
  if (warmed.length)
    console.log(`\n  warm-up before each row, req/s per unmeasured window until level:\n    ${warmed.join("\n    ")}`);
  if (result.memory) printMemory(result.memory);
  console.log(`\n  rows during the API pass (before its writes): ${sizes.join(", ")}`);
}

/**
 * Growth across the soak: from the end of the API rows to its last round (the heap settling into the
 * soak's own mix shows here), and per minute from its first round to its last, the rate a leak
 * would show as. null per minute with fewer than two rounds.
 */
export function soakGrowth({ afterApiMb, soak }: Memory): { mb: number; mbPerMinute: number | null } | null {
  const first = soak[0];
  const last = soak.at(-1);
  if (!first || !last) return null;
  const span = last.minutes - first.minutes;
  return { mb: last.rssMb - afterApiMb, mbPerMinute: span > 0 ? (last.rssMb - first.rssMb) / span : null };
}

function printMemory(memory: Memory): void {
  const { afterStartMb, afterApiMb, soak } = memory;
  console.log(`\n  server RSS (server.ts): ${afterStartMb} MB started, ${afterApiMb} MB after the API rows`);
  const last = soak.at(-1);
  const growth = soakGrowth(memory);
  if (!last || !growth) return;
  const signed = (n: number) => `${n >= 0 ? "+" : ""}${n}`;
  const perMinute = growth.mbPerMinute === null ? "–" : signed(round(growth.mbPerMinute, 2));
  console.log(
    `  soak, the verb rows again for ${last.minutes} min (RSS after each round): ${soak.map((r) => r.rssMb).join(" → ")} MB; ` +
      `${signed(growth.mb)} MB since the API rows, ${perMinute} MB/min from the first round to the last`,
  );
}

/**
 * Writes one run as `bench/results/<prefix><date-time>Z.json` and removes the earlier runs of the same
 * kind: the folder holds the latest run only, and git keeps the history (docs/benchmark.md).
 */
export function writeResults(results: unknown, prefix = ""): string {
  const dir = path.join(process.cwd(), "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const sameKind = new RegExp(`^${prefix}\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}Z\\.json$`);
  for (const old of fs.readdirSync(dir)) if (sameKind.test(old)) fs.rmSync(path.join(dir, old));
  const stamp = new Date().toISOString().slice(0, 16).replace(/:/g, "-");
  const file = path.join(dir, `${prefix}${stamp}Z.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return path.relative(process.cwd(), file);
}
