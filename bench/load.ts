import autocannon from "autocannon";
import { settings } from "./config.ts";
import { type CpuSource, startCpuCount } from "./cpu.ts";
import { cpuPerRequest, load1, type Measurement, round } from "./stats.ts";
import { findWrk, runWrk, type WrkRequest, type WrkResult } from "./wrk.ts";

/** One kind of request, spread over many members: request i uses member i mod n. */
export interface Scenario {
  label: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: (i: number) => string;
  token?: (i: number) => string;
  body?: (i: number) => unknown;
  headers?: Record<string, string>;
  /** The status every answer should have; a check-in also answers 200 for a day already recorded, hence a list. */
  expect: number | readonly number[];
  /**
   * Requests that can each be sent once (a delete): request i is pool entry `next + i`, and each
   * load run moves `next` past what it sent, so no row is deleted twice across warm-up and row.
   */
  pool?: { next: number; size: number };
  /** A 200 that is a failure (an MCP tool result with isError): checked on the probe, as wrk reads no bodies. */
  refused?: (body: string) => boolean;
}

/** The statuses a scenario counts as answered. */
export const expected = (scenario: Scenario): readonly number[] =>
  typeof scenario.expect === "number" ? [scenario.expect] : scenario.expect;

/** Sends the scenario's first request once, so a broken scenario is reported, not measured. */
export async function probe(url: string, scenario: Scenario): Promise<{ status: number; body: string }> {
  const i = scenario.pool ? scenario.pool.next++ : 0;
  const request = init(scenario, i);
  const response = await fetch(url + scenario.path(i), {
    ...request,
    headers: { ...request.headers, connection: "close" },
  });
  return { status: response.status, body: await response.text() };
}

function init(scenario: Scenario, i: number) {
  const headers: Record<string, string> = { ...scenario.headers };
  if (scenario.token) headers.authorization = `Bearer ${scenario.token(i)}`;
  let body: string | undefined;
  if (scenario.body) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(scenario.body(i));
  }
  return { method: scenario.method, headers, body };
}

const VARIANTS = 1000;
/** A pool's requests in one wrk script: 20,000 ran; 40,000 made wrk print no result (its Lua did not load). */
const POOL_RUN = 20_000;
let wrkPath: string | null | undefined;

/** What generated the load in this run (recorded with the results). */
export function loadGenerator(): "wrk" | "autocannon" {
  if (wrkPath === undefined) wrkPath = process.env.BENCH_LOAD === "autocannon" ? null : findWrk();
  return wrkPath ? "wrk" : "autocannon";
}

/** Load from wrk (or autocannon, see wrk.ts) against the server, `connections` at once. */
export async function measureApi(
  url: string,
  cpu: CpuSource,
  scenario: Scenario,
  seconds = settings.seconds,
  connections = settings.connections,
): Promise<Measurement> {
  const stopCpu = await startCpuCount(cpu);
  const base = scenario.pool?.next ?? 0;
  const result =
    loadGenerator() === "wrk"
      ? await withWrk(url, scenario, seconds, connections)
      : await withAutocannon(url, scenario, seconds, connections);
  const spent = await stopCpu();
  const total = Object.values(result.statuses).reduce((a, b) => a + b, 0);
  const answered = expected(scenario).reduce((sum, status) => sum + (result.statuses[String(status)] ?? 0), 0);
  // Past every entry handed out, in flight at the end or not: the next run must not send a row
  // already deleted (that answered 404 and was measured as a delete).
  if (scenario.pool) scenario.pool.next = Math.min(scenario.pool.size, base + result.spanned);
  return {
    label: scenario.label,
    requestsPerSecond: round(total / result.seconds, 1),
    p50Ms: round(result.p50Ms),
    p99Ms: round(result.p99Ms),
    requests: total,
    unexpected: total - answered + result.errors,
    statuses: { ...result.statuses, ...(result.errors ? { errors: result.errors } : {}) },
    seconds: round(result.seconds, 1),
    cpuMsPerRequest: cpuPerRequest(spent, total),
    load1: load1(),
  };
}

/** The scenario's requests, VARIANTS of them (request i uses member i mod n, as with autocannon). */
function variants(scenario: Scenario): WrkRequest[] {
  const base = scenario.pool?.next ?? 0;
  // A pool's run gets every entry left (at most POOL_RUN), so wrk cycles back to a used one only once that many are sent.
  const count = scenario.pool ? Math.max(1, Math.min(POOL_RUN, scenario.pool.size - base)) : VARIANTS;
  return Array.from({ length: count }, (_, k) => {
    const i = base + k;
    const { method, headers, body } = init(scenario, i);
    return { method, path: scenario.path(i), headers, ...(body === undefined ? {} : { body }) };
  });
}

async function withWrk(url: string, scenario: Scenario, seconds: number, connections: number): Promise<WrkResult> {
  return runWrk(wrkPath ?? "wrk", url, variants(scenario), seconds, connections);
}

async function withAutocannon(
  url: string,
  scenario: Scenario,
  seconds: number,
  connections: number,
): Promise<WrkResult> {
  const base = scenario.pool?.next ?? 0;
  let counter = base;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => {
          const i = counter++;
          return { ...request, path: scenario.path(i), ...init(scenario, i) };
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    errors: result.errors + result.timeouts,
    spanned: counter - base,
  };
}
