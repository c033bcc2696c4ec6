import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { DRAIN_LIMIT, sendResponse, serveFetch } from "../http/node-adapter.ts";
import { methodNotAllowed } from "../http/method-not-allowed.ts";
import { ApiError } from "../http/problem.ts";
import { nodeRequestId, routeTarget, SERVER_METHODS } from "../http/request-target.ts";
import { problemResponse } from "../http/respond.ts";
import { apiHandler } from "./api-routes.ts";

/**
 * The node:http server of server.ts: every request line is answered or routed here, never a 500.
 * A target with nothing to route (*, garbage, a bad Host) is answered by routeTarget; the API
 * routes by their handlers (apiHandler), without Next's router; the rest by `fallback` (Next in
 * server.ts; for a server without Next, the rest of the API: handleApiWithoutNext). CONNECT is
 * 405: this is no proxy; so is TRACE, which neither Next nor the API's adapter can take.
 * node:http itself answers what it cannot parse (400, 431).
 */
export function createNodeServer(
  name: string,
  fallback: RequestListener,
  /** Runs first on every request (server.ts: settle which forwarding headers to believe). */
  prepare?: (req: IncomingMessage) => void,
): http.Server {
  const server = http.createServer((req, res) => {
    prepare?.(req);
    const answer = routeTarget(req);
    if (answer) return void sendResponse(answer, req, res);
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    if (FETCH_FORBIDDEN.has(req.method ?? "")) return void refuseForbidden(req, res, pathname);
    const handle = apiHandler(req.method ?? "GET", pathname);
    if (handle) void serveFetch(name, handle, req, res);
    else fallback(req, res);
  });
  // Without a listener node:http drops a CONNECT's socket without a word.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => void refuseConnect(req, socket));
  return server;
}

/**
 * The Fetch standard's forbidden methods: a fetch Request refuses them, and Next makes one of every
 * request it routes (a TypeError, answered 500), as does the API's adapter. node:http hands CONNECT
 * to the "connect" event below and does not parse TRACK (400); TRACE is what arrives here.
 */
const FETCH_FORBIDDEN = new Set(["CONNECT", "TRACE", "TRACK"]);

/** 405 with the methods OPTIONS on the same target lists (an API route's own), else the server's. */
async function refuseForbidden(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const options = apiHandler("OPTIONS", pathname);
  const listed = options
    ? await options(new Request(`http://localhost${pathname}`, { method: "OPTIONS" })).then(
        (answer) => answer.headers.get("allow"),
        () => null,
      )
    : null;
  const allow = (listed || SERVER_METHODS).split(", ");
  await sendResponse(problemResponse(methodNotAllowed(req.method ?? "", allow), nodeRequestId(req)), req, res);
}

async function refuseConnect(req: IncomingMessage, socket: Duplex): Promise<void> {
  socket.on("error", () => {});
  const error = new ApiError("method_not_allowed", "CONNECT is for proxies, and this server is not one.");
  const response = problemResponse(error, nodeRequestId(req), { Allow: SERVER_METHODS });
  const body = await response.text();
  const head = [
    `HTTP/1.1 405 Method Not Allowed`,
    ...[...response.headers].map(([name, value]) => `${name}: ${value}`),
  ];
  head.push(`content-length: ${Buffer.byteLength(body)}`, "connection: close");
  // What the client sends after its CONNECT is read and dropped until it closes, as after any early answer.
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_LIMIT.ms).unref();
}
