import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/**
 * wrk (C, epoll) as the bench's load generator, as in issue 14's reference table. autocannon runs
 * in Node on the same two cores and took about as much CPU as a server's request (bench/results),
 * so the server rows paid for the generator; autocannon stays the fallback where wrk is missing.
 */
const run = promisify(execFile);

/** wrk if it is on the PATH, or installed from Debian's packages when this user may (CI-like machines). */
export function findWrk(): string | null {
  const which = () => spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).stdout.trim() || null;
  const found = which();
  if (found || process.env.BENCH_NO_INSTALL) return found;
  if (process.getuid?.() !== 0 || !fs.existsSync("/usr/bin/apt-get")) return null;
  console.log("Installing wrk from Debian's packages (apt-get install wrk)…");
  const install = () => spawnSync("apt-get", ["install", "-y", "-q", "wrk"], { stdio: "ignore" }).status === 0;
  if (!install()) {
    spawnSync("apt-get", ["update", "-q"], { stdio: "ignore" });
    install();
  }
  return which();
}

export interface WrkRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
  errors: number;
  /**
   * How many of the request list's entries were handed out, from the first, those still in flight
   * at the end included (a pool's next run starts past them). The threads take alternate entries
   * and run at their own pace, so this is the furthest any thread got, not the count sent.
   */
  spanned: number;
}

const lua = (value: string) => JSON.stringify(value); // a JSON string is a valid Lua string literal here

const THREADS = 2;
/**
 * Each connection's first request waits this long, so every connection is open and accepted before
 * the load starts. A saturated Node server accepts one connection per event-loop turn (libuv since
 * 1.45: "unix: don't accept() connections in a loop"), so fifty connections opened under load wait
 * up to ~50 turns in the accept queue (0.7 s seen), and wrk's coordinated-omission correction turns
 * each such wait into a run of slow samples: that, not the steady state, was the p99 of a 5-s row
 * (bench/results/2026-11-24-latency-tail.md). The hold is left out of the run's seconds (wrk
 * takes whole seconds, so the hold is one).
 */
export const HOLD_MS = 1000;

/**
 * The script: requests cycle through `requests`, thread k taking entries k, k + THREADS, … (so a
 * pool's entry, a row to delete, is sent once, not once per thread), every answer's status is
 * counted per thread, and done() prints one JSON line with the totals and the furthest entry a
 * thread took (one thread may run ahead of the other: a count of requests would fall short of it).
 */
function script(requests: readonly WrkRequest[], connectionsPerThread: number): string {
  const table = requests
    .map((r) => {
      const headers = Object.entries(r.headers)
        .map(([k, v]) => `[${lua(k)}]=${lua(v)}`)
        .join(",");
      return `wrk.format(${lua(r.method)}, ${lua(r.path)}, {${headers}}, ${r.body === undefined ? "nil" : lua(r.body)})`;
    })
    .join(",\n");
  return `
local threads = {}
function setup(thread) table.insert(threads, thread); thread:set("id", #threads) end
local requests
function init(args)
  requests = {${table}}
  i = id or 0 -- a global: done() reads it from each thread
  statuses = {} -- a global: done() reads it from each thread
end
function request()
  i = i + ${THREADS}
  return requests[(i % #requests) + 1]
end
function response(status) statuses[status] = (statuses[status] or 0) + 1 end
local held = 0
function delay()
  if held < ${connectionsPerThread} then held = held + 1; return ${HOLD_MS} end
  return 0
end
function done(summary, latency)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do counts[tostring(status)] = (counts[tostring(status)] or 0) + n end
  end
  local furthest = 0
  for _, thread in ipairs(threads) do furthest = math.max(furthest, thread:get("i")) end
  local parts = {}
  for status, n in pairs(counts) do table.insert(parts, string.format('"%s":%d', status, n)) end
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"errors":%d,"spanned":%d,"statuses":{%s}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, furthest + 1, table.concat(parts, ",")))
end
`;
}

export async function runWrk(
  wrk: string,
  url: string,
  requests: readonly WrkRequest[],
  seconds: number,
  connections: number,
): Promise<WrkResult> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pds-wrk-")), "load.lua");
  fs.writeFileSync(file, script(requests, Math.floor(connections / THREADS)));
  try {
    const { stdout } = await run(
      wrk,
      [`-t${THREADS}`, `-c${connections}`, `-d${seconds + HOLD_MS / 1000}s`, "--timeout", "30s", "-s", file, url],
      { maxBuffer: 1 << 20 },
    );
    const line = stdout.split("\n").find((l) => l.startsWith("WRK "));
    if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
    const out = JSON.parse(line.slice(4)) as {
      requests: number;
      micros: number;
      p50: number;
      p99: number;
      errors: number;
      spanned: number;
      statuses: Record<string, number>;
    };
    return {
      requests: out.requests,
      seconds: (out.micros / 1000 - HOLD_MS) / 1000,
      p50Ms: out.p50 / 1000,
      p99Ms: out.p99 / 1000,
      statuses: out.statuses,
      errors: out.errors,
      spanned: Math.min(out.spanned, requests.length),
    };
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
