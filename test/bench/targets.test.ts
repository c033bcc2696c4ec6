import { describe, expect, it } from "vitest";
import { SERVICE_COLD_START_LABEL } from "../../bench/cold-start.ts";
import type { DatabaseResult } from "../../bench/report.ts";
import { NEXT_START_SUFFIX } from "../../bench/scenarios.ts";
import type { Measurement } from "../../bench/stats.ts";
import { checkTargets, GROWTH_ROWS, SEARCH_CATALOG } from "../../bench/targets.ts";
import { SURFACES, VERB_NAMES, verbLabelPrefix } from "../../bench/verbs.ts";

/**
 * The run's own verdict on issue 34 (bench/targets.ts): each target met, not met, or not measured,
 * from a result shaped as bench/run.ts writes it. The floor answers 1,000 req/s here, so a row's
 * requests/s over 1,000 is its share of the floor.
 */
const FLOOR = 1000;
/** The machine's cores, which the bench, the server and the database share. */
const CORES = 2;

function m(label: string, share: number, p99Ms = 30, p50Ms = 10): Measurement {
  return {
    label,
    requestsPerSecond: share * FLOOR,
    p50Ms,
    p99Ms,
    requests: 1000,
    unexpected: 0,
    statuses: {},
    seconds: 10,
    cpuMsPerRequest: { app: 0.5, db: 0.5, total: 1 },
    load1: 1,
  };
}

/** A run in which every target is met. */
function passing(): DatabaseResult {
  const verbs = VERB_NAMES.flatMap((verb) =>
    SURFACES.map((surface) => m(`${verbLabelPrefix(verb, surface)}tool)`, 0.95)),
  );
  return {
    database: "postgres",
    tableSizes: {},
    ceiling: [],
    bounds: [{ floor: m("floor", 1) }],
    memory: {
      afterStartMb: 130,
      afterApiMb: 240,
      // The soak's first round settles 11 MB above the API rows' end, then holds: no leak (2026-11-28T14-38Z).
      soak: [
        { minutes: 1.8, rssMb: 251 },
        { minutes: 6.4, rssMb: 251 },
        { minutes: 11, rssMb: 251 },
      ],
    },
    coldStarts: [{ label: SERVICE_COLD_START_LABEL, toFirstListMs: [700, 650, 900] }],
    api: [
      m("GET /search?query=…", 0.6, 70),
      ...verbs,
      m(`GET /collections (50 rows)${NEXT_START_SUFFIX}`, 0.85),
      m(`POST /items${NEXT_START_SUFFIX}`, 0.81),
    ],
    skipped: [],
    growth: [1000, 10_000, GROWTH_ROWS].map((rows) => ({
      rowsPerMember: rows,
      tableSizes: {},
      explain: {},
      plans: {},
      list: m("list", 1, 30, rows === GROWTH_ROWS ? 11.9 : 10),
      search: m("search", 1, 30, 10.5),
    })),
    webhooks: {
      committed: 10_000,
      delivered: 10_000,
      duplicates: 0,
      seconds: 20,
      eventsPerSecond: 500,
      commitsPerSecond: 600,
      lagMs: { p50: 200, p99: 1500, max: 1900 },
      pacedLagMs: { p50: 20, p99: 40, max: 50 },
    },
    loadAverage: { before: [], after: [] },
  };
}

const verdicts = (result: DatabaseResult, catalog = SEARCH_CATALOG) =>
  checkTargets(result, catalog, CORES).map((c) => c.met);

describe("issue 34's targets, checked by the run", () => {
  it("meets all seven when every figure is within its target", () => {
    expect(verdicts(passing())).toEqual([true, true, true, true, true, true, true]);
  });

  it("fails target 1 on one verb row under 0.9× or over 50 ms p99, naming it first", () => {
    const slow = passing();
    const row = slow.api.find((r) => r.label.startsWith(verbLabelPrefix("check-in", "MCP")));
    if (!row) throw new Error("no check-in row");
    row.requestsPerSecond = 0.89 * FLOOR;
    const [first] = checkTargets(slow, SEARCH_CATALOG, CORES);
    expect(first?.met).toBe(false);
    expect(first?.detail).toMatch(/p99 ≤ 50 ms: check-in MCP \(tool\) 0\.89×/);
    // Just under the target is under it, however the share would round.
    row.requestsPerSecond = 0.8996 * FLOOR;
    expect(verdicts(slow)[0]).toBe(false);
    row.requestsPerSecond = FLOOR;
    row.p99Ms = 51;
    expect(verdicts(slow)[0]).toBe(false);
  });

  it("sets beside a target not met the floor's own p99 and the cores the share would keep busy", () => {
    const slow = passing();
    const [floor] = slow.bounds;
    if (!floor?.floor) throw new Error("no floor");
    // The floor: 1,000 req/s at 1 ms of CPU a request keeps one core busy.
    slow.bounds = [{ floor: { ...floor.floor, p99Ms: 55 } }, { floor: { ...floor.floor, p99Ms: 45 } }];
    const create = slow.api.find((r) => r.label.startsWith(verbLabelPrefix("create", "REST")));
    const update = slow.api.find((r) => r.label.startsWith(verbLabelPrefix("update", "REST")));
    const get = slow.api.find((r) => r.label.startsWith(verbLabelPrefix("get", "REST")));
    if (!create || !update || !get) throw new Error("missing rows");
    create.requestsPerSecond = 0.5 * FLOOR;
    create.cpuMsPerRequest = { app: 0.4, db: 1.25, total: 1.65 };
    update.requestsPerSecond = 0.6 * FLOOR;
    update.cpuMsPerRequest = { app: 0.4, db: 1, total: 1.4 };
    // A row that meets the share is not the one named, however much CPU it spends.
    get.cpuMsPerRequest = { app: 1, db: 2, total: 3 };
    const [first, second] = checkTargets(slow, SEARCH_CATALOG, CORES);
    expect(first?.met).toBe(false);
    expect(first?.reach).toBe(
      "the static floor's own p99 55 ms and 45 ms (1 of 2 above 50 ms); at 0.9× the floor (900 req/s), " +
        "create REST (tool) at its 1.65 ms of CPU a request, 1.25 of them the database's, would keep 1.49 cores " +
        "busy (the database alone 1.13), of the machine's 2; the floor kept 1.00 busy",
    );
    // A target met carries none.
    expect(second?.met).toBe(true);
    expect(second?.reach).toBeUndefined();
  });

  it("names search's limits for target 2, and no database part where none is measured apart (PGlite)", () => {
    const slow = passing();
    slow.database = "pglite";
    const search = slow.api.find((r) => r.label.startsWith("GET /search"));
    if (!search) throw new Error("no search row");
    search.requestsPerSecond = 0.4 * FLOOR;
    search.p99Ms = 120;
    search.cpuMsPerRequest = { app: 2.5, db: 0, total: 2.5 };
    const second = checkTargets(slow, SEARCH_CATALOG, CORES)[1];
    expect(second?.met).toBe(false);
    expect(second?.reach).toBe(
      "the static floor's own p99 30 ms (0 of 1 above 80 ms); at 0.5× the floor (500 req/s), GET /search?query=… " +
        "at its 2.5 ms of CPU a request would keep 1.25 cores busy, of the machine's 2; the floor kept 1.00 busy",
    );
  });

  it("sets out only the floor's p99 when every row meets the share and a p99 does not", () => {
    const slow = passing();
    const row = slow.api.find((r) => r.label.startsWith(verbLabelPrefix("list", "MCP")));
    if (!row) throw new Error("no list row");
    row.p99Ms = 60;
    const [first] = checkTargets(slow, SEARCH_CATALOG, CORES);
    expect(first?.met).toBe(false);
    expect(first?.reach).toBe("the static floor's own p99 30 ms (0 of 1 above 50 ms)");
  });

  it("says a target was not measured rather than met when its rows or passes did not run", () => {
    const partial = passing();
    partial.api = partial.api.filter((r) => !r.label.startsWith(verbLabelPrefix("delete", "invoke")));
    partial.memory = { afterStartMb: 130, afterApiMb: 240, soak: [{ minutes: 5, rssMb: 240 }] };
    partial.growth = partial.growth.slice(0, 2);
    delete partial.webhooks;
    delete partial.coldStarts;
    partial.api = partial.api.filter((r) => !r.label.endsWith(NEXT_START_SUFFIX));
    const checks = checkTargets(partial, 100_000, CORES);
    expect(checks.map((c) => c.met)).toEqual([null, null, null, null, null, null, null]);
    expect(checks[0]?.detail).toMatch(/rows missing: delete invoke/);
    expect(checks[1]?.detail).toMatch(/100000 entries/);
  });

  it("fails memory, cold start, webhooks and growth past their limits", () => {
    const over = passing();
    if (!over.memory || !over.webhooks || !over.coldStarts?.[0]) throw new Error("incomplete fixture");
    over.memory.soak = [
      { minutes: 2, rssMb: 241 },
      { minutes: 12, rssMb: 247 }, // 0.6 MB a minute
    ];
    over.coldStarts[0].toFirstListMs = [1400, 1600, 1700];
    over.webhooks.delivered = 9999;
    const last = over.growth.at(-1);
    if (!last?.search) throw new Error("no growth search");
    last.search.p50Ms = 13;
    expect(verdicts(over)).toEqual([true, true, true, false, false, false, false]);
    const peak = passing();
    if (!peak.memory) throw new Error("no memory");
    peak.memory.afterApiMb = 301;
    expect(verdicts(peak)[3]).toBe(false);
  });

  it("holds search to 0.5× and 80 ms and the route files to 0.8×", () => {
    const slow = passing();
    const search = slow.api.find((r) => r.label.startsWith("GET /search"));
    const create = slow.api.find((r) => r.label === `POST /items${NEXT_START_SUFFIX}`);
    if (!search || !create) throw new Error("missing rows");
    search.p99Ms = 81;
    create.requestsPerSecond = 0.79 * FLOOR;
    expect(verdicts(slow).slice(1, 3)).toEqual([false, false]);
  });
});
