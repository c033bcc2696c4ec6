import autocannon from "autocannon";
import { settings } from "./config.ts";
import { type CpuSource, startCpuCount } from "./cpu.ts";
import { cpuPerRequest, load1, type Measurement, round } from "./stats.ts";

/** One kind of request, spread over many members: request i uses member i mod n. */
export interface Scenario {
  label: string;
  method: "GET" | "POST";
  path: (i: number) => string;
  token?: (i: number) => string;
  body?: (i: number) => unknown;
  expect: number;
}

/** Sends the scenario's first request once, so a broken scenario is reported, not measured. */
export async function probe(url: string, scenario: Scenario): Promise<{ status: number; body: string }> {
  const request = init(scenario, 0);
  const response = await fetch(url + scenario.path(0), { ...request, headers: { ...request.headers, connection: "close" } });
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

/** Load from autocannon (this process; the server is another), `connections` at once. */
export async function measureApi(
  url: string,
  cpu: CpuSource,
  scenario: Scenario,
  seconds = settings.seconds,
  connections = settings.connections,
): Promise<Measurement> {
  let counter = 0;
  const stopCpu = await startCpuCount(cpu);
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
  const spent = await stopCpu();
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const expected = statuses[String(scenario.expect)] ?? 0;
  return {
    label: scenario.label,
    requestsPerSecond: round(total / result.duration, 1),
    p50Ms: round(result.latency.p50),
    p99Ms: round(result.latency.p99),
    requests: total,
    unexpected: total - expected + result.errors + result.timeouts,
    statuses: { ...statuses, ...(result.errors ? { errors: result.errors } : {}) },
    seconds: round(result.duration, 1),
    cpuMsPerRequest: cpuPerRequest(spent, total),
    load1: load1(),
  };
}
