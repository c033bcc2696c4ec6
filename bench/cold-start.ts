// Cold start (issue 34's fifth target): from process start to the first authenticated list answered,
// on the service (server.ts), and on `next start` serving the generated route files as a serverless
// function meets it: the process is up, then its first request loads the route.
import net from "node:net";
import path from "node:path";
import { settings } from "./config.ts";
import type { BenchMember } from "./seed.ts";
import { type SpawnedServer, spawnServer } from "./server.ts";
import { median, round } from "./stats.ts";

export interface ColdStart {
  label: string;
  /** Process start to the first authenticated GET /collections answered 200, per fresh process. */
  toFirstListMs: number[];
  /** `next start` only: the port accepting (process up) to that first answer, the request alone. */
  firstRequestMs?: number[];
}

export const SERVICE_COLD_START_LABEL = "server.ts: start → first authenticated list";

const ROOT = path.resolve(import.meta.dirname, "..");
const POLL_MS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first authenticated list: its status, on a fresh connection (a real client's first request). */
function list(url: string, token: string): Promise<number> {
  return fetch(`${url}/api/v1/collections`, {
    headers: { authorization: `Bearer ${token}`, connection: "close" },
  }).then(
    (r) => r.arrayBuffer().then(() => r.status),
    () => 0,
  );
}

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function until(server: SpawnedServer, done: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!(await done())) {
    if (server.child.exitCode !== null)
      throw new Error(`the server exited (${server.child.exitCode}): ${server.stderr()}`);
    if (performance.now() > deadline) throw new Error(`no answer within 60 s: ${server.stderr()}`);
    await sleep(POLL_MS);
  }
}

/** server.ts: polls the authenticated list from the spawn on, so the figure is process start to answer. */
async function serviceColdStart(env: Record<string, string>, token: string): Promise<number> {
  const server = await spawnServer(env);
  try {
    await until(server, async () => (await list(server.url, token)) === 200);
    return round(performance.now() - server.spawnedAt);
  } finally {
    await server.stop();
  }
}

/** `next start`: waits for the port (touching no route), then times the first request on its own. */
async function routeFileColdStart(
  env: Record<string, string>,
  token: string,
): Promise<{ total: number; first: number }> {
  const server = await spawnServer(env, { dir: ROOT });
  try {
    await until(server, () => accepts(server.url));
    const sent = performance.now();
    const status = await list(server.url, token);
    if (status !== 200) throw new Error(`next start's first list answered ${status}: ${server.stderr()}`);
    const now = performance.now();
    return { total: round(now - server.spawnedAt), first: round(now - sent) };
  } finally {
    await server.stop();
  }
}

/** Each kind `settings.coldStarts` times, taking turns, a fresh process each time. */
export async function measureColdStarts(env: Record<string, string>, member: BenchMember): Promise<ColdStart[]> {
  const token = member.tokens[0];
  if (!token) throw new Error("the member has no token");
  const service: ColdStart = { label: SERVICE_COLD_START_LABEL, toFirstListMs: [] };
  const routeFiles: ColdStart = {
    label: "next start (route files): start → first list",
    toFirstListMs: [],
    firstRequestMs: [],
  };
  for (let i = 0; i < settings.coldStarts; i++) {
    service.toFirstListMs.push(await serviceColdStart(env, token));
    const { total, first } = await routeFileColdStart(env, token);
    routeFiles.toFirstListMs.push(total);
    routeFiles.firstRequestMs?.push(first);
  }
  return [service, routeFiles];
}

const summary = (ms: number[]) => `median ${median(ms)} ms (${[...ms].sort((a, b) => a - b).join(", ")})`;

export function printColdStarts(database: string, starts: readonly ColdStart[]): void {
  console.log(`\n  cold start [${database}], ${settings.coldStarts} fresh processes each:`);
  for (const start of starts) {
    console.log(`    ${start.label}: ${summary(start.toFirstListMs)}`);
    if (start.firstRequestMs)
      console.log(`      of which the first request, once the port accepts: ${summary(start.firstRequestMs)}`);
  }
}
