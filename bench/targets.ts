// Issue 34's targets, checked against one database's results of one run: its "done when" is every
// target met in one `npm run bench`, so the run says which are, from its own figures, rather than a
// reader matching rows to targets by hand. `node bench/targets.ts <results.json>` checks a saved run.
import fs from "node:fs";
import { SERVICE_COLD_START_LABEL } from "./cold-start.ts";
import { type DatabaseResult, floorOf, soakGrowth } from "./report.ts";
import { NEXT_START_SUFFIX } from "./scenarios.ts";
import { type Measurement, median } from "./stats.ts";
import { SURFACES, VERB_NAMES, verbLabelPrefix } from "./verbs.ts";

export interface TargetCheck {
  target: number;
  /** null: this run did not measure it (a pass not run, a catalog or a growth too small). */
  met: boolean | null;
  detail: string;
  /** Beside target 1 or 2 not met: what the same run says of its reach on this machine (reachOf). */
  reach?: string;
}

/** What a run must hold for targets 2 and 7 to be measured at all. */
export const SEARCH_CATALOG = 1_000_000;
export const GROWTH_ROWS = 1_000_000;

const LIMITS = {
  verbShare: 0.9,
  verbP99Ms: 50,
  searchShare: 0.5,
  searchP99Ms: 80,
  nextStartShare: 0.8,
  rssMb: 300,
  /** "Steady" across the soak: growth per minute over at least ten minutes. */
  soakMbPerMinute: 0.5,
  soakMinutes: 10,
  coldStartMs: 1500,
  webhookEvents: 10_000,
  webhookLagP99Ms: 2000,
  growthP50: 1.2,
};

type Row = { m: Measurement; share: number | null };

/** "label 0.91×, p99 40 ms" for each row, the failing ones first. */
function rowsDetail(rows: Row[], ok: (row: Row) => boolean): string {
  const sorted = [...rows].sort((a, b) => Number(ok(a)) - Number(ok(b)));
  return sorted.map(({ m, share }) => `${m.label} ${share?.toFixed(2) ?? "–"}×, p99 ${m.p99Ms} ms`).join("; ");
}

function shareCheck(target: number, rows: Row[], share: number, p99Ms: number | null, missing: string[]): TargetCheck {
  if (!rows.length) return { target, met: null, detail: "no row measured" };
  const ok = ({ m, share: s }: Row) =>
    s !== null && s >= share && (p99Ms === null || m.p99Ms <= p99Ms) && !m.unexpected;
  const met = missing.length ? null : rows.every(ok);
  const absent = missing.length ? `rows missing: ${missing.join(", ")}. ` : "";
  const limit = `≥ ${share}× the floor${p99Ms === null ? "" : `, p99 ≤ ${p99Ms} ms`}`;
  return { target, met, detail: `${absent}${limit}: ${rowsDetail(rows, ok)}` };
}

/**
 * What the run's own figures say of a target's reach, beside it when not met:
 * - the static floor's p99 against the p99 bound: a bound the static route itself misses is not one a
 *   route doing more is likely to meet (measured);
 * - for the row short of the share that spends the most CPU a request, the cores that share of the
 *   floor's throughput would keep busy at this run's CPU a request, against the machine's cores, which
 *   the load generator, the server and the database share (arithmetic on measured figures: it assumes
 *   the CPU a request stays as it was). The database's part is named where it is measured apart
 *   (a database server; PGlite runs inside the application).
 */
function reachOf(result: DatabaseResult, rows: Row[], limit: { share: number; p99Ms: number }, cores: number) {
  const floor = floorOf(result);
  if (!floor) return undefined;
  const parts: string[] = [];
  const own = result.bounds.map((b) => b.floor?.p99Ms).filter((p): p is number => p !== undefined);
  const above = own.filter((p) => p > limit.p99Ms).length;
  parts.push(
    `the static floor's own p99 ${own.map((p) => `${p} ms`).join(" and ")} (${above} of ${own.length} above ${limit.p99Ms} ms)`,
  );
  const short = rows.filter((r) => r.share !== null && r.share < limit.share);
  if (short.length) {
    const heaviest = short.reduce((a, b) => (b.m.cpuMsPerRequest.total > a.m.cpuMsPerRequest.total ? b : a));
    const { total, db } = heaviest.m.cpuMsPerRequest;
    const rps = limit.share * floor.requestsPerSecond;
    const busy = (ms: number) => ((rps * ms) / 1000).toFixed(2);
    const database = db > 0 ? `, ${db} of them the database's,` : "";
    const alone = db > 0 ? ` (the database alone ${busy(db)})` : "";
    parts.push(
      `at ${limit.share}× the floor (${Math.round(rps)} req/s), ${heaviest.m.label} at its ${total} ms of CPU a request${database} would keep ${busy(total)} cores busy${alone}, of the machine's ${cores}; the floor kept ${((floor.requestsPerSecond * floor.cpuMsPerRequest) / 1000).toFixed(2)} busy`,
    );
  }
  return parts.join("; ");
}

/** cores: the machine's, which the run's bench, server and database share (run.ts's `machine.cpus`). */
export function checkTargets(result: DatabaseResult, catalogEntries: number, cores: number): TargetCheck[] {
  // Unrounded, so a row just under a target is not counted as meeting it.
  const floor = floorOf(result)?.requestsPerSecond;
  const row = (m: Measurement): Row => ({ m, share: floor ? m.requestsPerSecond / floor : null });
  const find = (prefix: string) => result.api.find((m) => m.label.startsWith(prefix));
  const checks: TargetCheck[] = [];
  // A share and a p99 to meet, and beside a miss what the run says of the target's reach.
  const withReach = (target: number, rows: Row[], limit: { share: number; p99Ms: number }, missing: string[]) => {
    const check = shareCheck(target, rows, limit.share, limit.p99Ms, missing);
    const reach = check.met === false ? reachOf(result, rows, limit, cores) : undefined;
    return reach ? { ...check, reach } : check;
  };

  // 1. Every verb on every surface.
  const verbRows: Row[] = [];
  const missing: string[] = [];
  for (const verb of VERB_NAMES) {
    for (const surface of SURFACES) {
      const m = find(verbLabelPrefix(verb, surface));
      if (m) verbRows.push(row(m));
      else missing.push(`${verb} ${surface}`);
    }
  }
  checks.push(withReach(1, verbRows, { share: LIMITS.verbShare, p99Ms: LIMITS.verbP99Ms }, missing));

  // 2. Search on a million entries: GET /search and the search verb on each surface.
  const searchRows = result.api.filter((m) => /^GET \/search|^search /.test(m.label)).map(row);
  checks.push(
    catalogEntries < SEARCH_CATALOG
      ? { target: 2, met: null, detail: `the catalog held ${catalogEntries} entries, not ${SEARCH_CATALOG}` }
      : withReach(2, searchRows, { share: LIMITS.searchShare, p99Ms: LIMITS.searchP99Ms }, []),
  );

  // 3. The route files under next start.
  const nextRows = result.api.filter((m) => m.label.endsWith(NEXT_START_SUFFIX)).map(row);
  checks.push(
    nextRows.length
      ? shareCheck(3, nextRows, LIMITS.nextStartShare, null, [])
      : { target: 3, met: null, detail: "the next start rows did not run" },
  );

  // 4. Memory after the load and across the soak.
  const memory = result.memory;
  if (!memory) checks.push({ target: 4, met: null, detail: "no API pass" });
  else {
    const peak = Math.max(memory.afterApiMb, ...memory.soak.map((r) => r.rssMb));
    const growth = soakGrowth(memory);
    const minutes = memory.soak.at(-1)?.minutes ?? 0;
    const rate = minutes >= LIMITS.soakMinutes ? (growth?.mbPerMinute ?? null) : null;
    const met = peak > LIMITS.rssMb ? false : rate === null ? null : rate <= LIMITS.soakMbPerMinute;
    const soak = growth
      ? `, at most ${peak} MB over a ${minutes}-min soak, ${growth.mbPerMinute?.toFixed(2) ?? "–"} MB/min from its first round to its last`
      : ", no soak";
    checks.push({
      target: 4,
      met,
      detail: `RSS ≤ ${LIMITS.rssMb} MB, ≤ ${LIMITS.soakMbPerMinute} MB/min over ≥ ${LIMITS.soakMinutes} min: ${memory.afterApiMb} MB after the API rows${soak}`,
    });
  }

  // 5. Cold start of server.ts (the route files' first request is reported beside it, not a target).
  const service = result.coldStarts?.find((c) => c.label === SERVICE_COLD_START_LABEL);
  const coldMedian = service?.toFirstListMs.length ? median(service.toFirstListMs) : undefined;
  checks.push(
    coldMedian === undefined
      ? { target: 5, met: null, detail: "cold starts did not run" }
      : {
          target: 5,
          met: result.database === "postgres" ? coldMedian <= LIMITS.coldStartMs : null,
          detail: `server.ts to the first authenticated list ≤ ${LIMITS.coldStartMs} ms on Postgres: median ${coldMedian} ms`,
        },
  );

  // 6. Webhooks: every event delivered, none twice, lag p99.
  const hooks = result.webhooks;
  checks.push(
    hooks
      ? {
          target: 6,
          met:
            hooks.committed >= LIMITS.webhookEvents &&
            hooks.delivered === hooks.committed &&
            hooks.duplicates === 0 &&
            hooks.lagMs.p99 <= LIMITS.webhookLagP99Ms,
          detail: `${LIMITS.webhookEvents} events, lag p99 ≤ ${LIMITS.webhookLagP99Ms} ms: ${hooks.committed} committed, ${hooks.committed - hooks.delivered} lost, ${hooks.duplicates} duplicated, lag p99 ${hooks.lagMs.p99} ms`,
        }
      : { target: 6, met: null, detail: "the webhook pass did not run" },
  );

  // 7. Growth: list and search p50 from the first step to a million rows.
  const [first] = result.growth;
  const largest = result.growth.at(-1);
  if (!first || !largest || largest.rowsPerMember < GROWTH_ROWS) {
    checks.push({ target: 7, met: null, detail: `growth did not reach ${GROWTH_ROWS} rows per member` });
  } else {
    const times = (a?: Measurement, b?: Measurement) => (a && b ? a.p50Ms / b.p50Ms : null);
    const list = times(largest.list, first.list);
    const search = times(largest.search, first.search);
    const met = list !== null && search !== null && list <= LIMITS.growthP50 && search <= LIMITS.growthP50;
    checks.push({
      target: 7,
      met,
      detail: `p50 at ${largest.rowsPerMember} rows ≤ ${LIMITS.growthP50}× at ${first.rowsPerMember}: list ${list?.toFixed(2) ?? "–"}×, search ${search?.toFixed(2) ?? "–"}×`,
    });
  }
  return checks;
}

export function printTargets(database: string, checks: readonly TargetCheck[]): void {
  const word = (met: boolean | null) => (met === null ? "not measured" : met ? "met" : "not met");
  const all = checks.every((c) => c.met === true);
  console.log(`\n  issue 34's targets [${database}]: ${all ? "every one met in this run" : "not every one met"}`);
  for (const c of checks) {
    console.log(`    ${c.target}. ${word(c.met)}: ${c.detail}`);
    if (c.reach) console.log(`       in this run: ${c.reach}`);
  }
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: node bench/targets.ts bench/results/<run>.json");
  const run = JSON.parse(fs.readFileSync(file, "utf8")) as {
    settings: { catalogEntries: number };
    machine: { cpus: number };
    databases: DatabaseResult[];
  };
  for (const result of run.databases) {
    printTargets(result.database, checkTargets(result, run.settings.catalogEntries, run.machine.cpus));
  }
}
