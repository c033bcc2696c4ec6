import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const FIXTURES = path.join(process.cwd(), "test", "fixtures", "upstream");

/** One recorded answer. `file` is relative to test/fixtures/upstream. */
export interface FixtureAnswer {
  status?: number;
  file?: string;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface FixtureServer {
  url: string;
  /** Every request seen, as its route key. */
  requests: string[];
  /** Requests no route answered (they got a 404). */
  unexpected: string[];
  /** The User-Agent of every request, in order. */
  userAgents: string[];
  close(): Promise<void>;
}

/** "GET /path?a=1&b=2" with the query sorted, so keys do not depend on parameter order. */
export function routeKey(method: string, url: string): string {
  const parsed = new URL(url, "http://fixture");
  const query = new URLSearchParams(
    [...parsed.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const search = query.toString();
  return `${method} ${parsed.pathname}${search ? `?${search}` : ""}`;
}

/**
 * The resolver cache is shared and outlives a run on a server database: a port an earlier run's
 * fixture server used may come round again, and its answers must not stand in for this one's.
 */
async function forgetCachedAnswers(origin: string): Promise<void> {
  const { asService } = await import("../../../lib/db/index.ts");
  await asService((tx) => tx.query("delete from app_private.resolver_cache where strpos(key, $1) > 0", [origin]));
}

/**
 * A loopback HTTP server replaying fixtures by route key. A list of answers is served in turn (the
 * last one repeats), which is how a test scripts "429, then 200".
 */
export async function startFixtureServer(
  routes: Record<string, FixtureAnswer | FixtureAnswer[]>,
): Promise<FixtureServer> {
  const requests: string[] = [];
  const unexpected: string[] = [];
  const userAgents: string[] = [];
  const served = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const key = routeKey(req.method ?? "GET", req.url ?? "/");
    requests.push(key);
    userAgents.push(String(req.headers["user-agent"] ?? ""));
    const route = routes[key];
    if (!route) {
      unexpected.push(key);
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no fixture"}');
      return;
    }
    const list = Array.isArray(route) ? route : [route];
    const turn = served.get(key) ?? 0;
    served.set(key, turn + 1);
    const answer = list[Math.min(turn, list.length - 1)] ?? {};
    const body = answer.file ? fs.readFileSync(path.join(FIXTURES, answer.file)) : (answer.body ?? "");
    const send = () => {
      if (res.destroyed) return;
      const type = answer.file?.endsWith(".html") ? "text/html; charset=utf-8" : "application/json";
      res.writeHead(answer.status ?? 200, { "content-type": type, ...answer.headers }).end(body);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await forgetCachedAnswers(`http://127.0.0.1:${port}/`);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unexpected,
    userAgents,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
