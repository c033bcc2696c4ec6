import autocannon from "autocannon";
import { settings } from "./config.ts";
import { type CpuSource, startCpuCount } from "./cpu.ts";
import { cpuPerRequest, load1, type Measurement, round } from "./stats.ts";
import { findWrk, runWrk, type WrkRequest, type WrkResult } from "./wrk.ts";

/** One kind of request, spread over many members: request i uses member i mod n. */
export interface Scenario {
  label: string;
  method: "GET" | "POST" | "PATCH";
  path: (i: number) => string;
  token?: (i: number) => string;
  body?: (i: number) => unknown;
  expect: number;
}

/** Sends the scenario's first request once, so a broken scenario is reported, not measured. */
export async function probe(url: string, scenario: Scenario): Promise<{ status: number; body: string }> {
  const request = init(scenario, 0);
  const response = await fetch(url + scenario.path(0), {
    ...request,
    headers: { ...request.headers, connection: "close" },
  });
  return { status: response.status, body: (await response.text()).slice(0, 300) };
}

function init(scenario: Scenario, i: number) {
  const headers: Record<string, string> = {};
  if (scenario.token) headers.authorization = `Bearer ${scenario.token(i)}`;
  let body: string | undefined;
  if (scenario.body) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(scenario.body(i));
  }
  return { method: scenario.method, headers, body };
}

const VARIANTS = 1000;
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
  const result =
    loadGenerator() === "wrk"
      ? await withWrk(url, scenario, seconds, connections)
      : await withAutocannon(url, scenario, seconds, connections);
  const spent = await stopCpu();
  const total = Object.values(result.statuses).reduce((a, b) => a + b, 0);
  const expected = result.statuses[String(scenario.expect)] ?? 0;
  return {
    label: scenario.label,
    requestsPerSecond: round(total / result.seconds, 1),
    p50Ms: round(result.p50Ms),
    p99Ms: round(result.p99Ms),
    requests: total,
    unexpected: total - expected + result.errors,
    statuses: { ...result.statuses, ...(result.errors ? { errors: result.errors } : {}) },
    seconds: round(result.seconds, 1),
    cpuMsPerRequest: cpuPerRequest(spent, total),
    load1: load1(),
  };
}

/** The scenario's requests, VARIANTS of them (request i uses member i mod n, as with autocannon). */
function variants(scenario: Scenario): WrkRequest[] {
  return Array.from({ length: VARIANTS }, (_, i) => {
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
  let counter = 0;
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
  };
}
