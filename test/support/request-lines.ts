import net from "node:net";

/** What came back on a raw connection: the status line's code (0 for none), headers and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `raw` on a new TCP connection to `origin` and reads until the server closes it (every row
 * below asks for that, or is one the server answers by closing), or `ms` pass. For request lines
 * that fetch and node:http's client will not send.
 */
export function rawRequest(origin: string, raw: string, ms = 20_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", body = ""] = text.split(/\r\n\r\n(.*)/s);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body });
    };
    const timer = setTimeout(done, ms);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", done);
    socket.on("error", done);
    socket.write(raw, "latin1");
  });
}

/** Where a row's request goes on server.ts: answered before routing, by the API's handlers, or by Next. */
export type Route = "front" | "api" | "next" | "node";

export interface RequestLineCase {
  name: string;
  raw: (host: string) => string;
  /** The status the server answers, where it does not depend on Next's pages; otherwise any below 500. */
  status?: number;
  route: Route;
}

const close = "Connection: close\r\n";
const line =
  (requestLine: string, headers = "", body = "") =>
  (host: string) =>
    `${requestLine}\r\nHost: ${host}\r\n${headers}${close}\r\n${body}`;

/**
 * Every form of request target (RFC 9112 §3.2) and some lines that are no request at all: none may
 * be answered 5xx. Rows routed to Next have no fixed status (a page, a 404).
 */
export const REQUEST_LINES: readonly RequestLineCase[] = [
  { name: "origin-form to the API", raw: line("GET /api/v1/health HTTP/1.1"), status: 200, route: "api" },
  { name: "origin-form to a page", raw: line("GET /docs/errors HTTP/1.1"), route: "next" },
  { name: "origin-form with an empty first segment", raw: line("GET //api/v1/health HTTP/1.1"), route: "next" },
  { name: "origin-form with a fragment", raw: line("GET /api/v1/health#x HTTP/1.1"), route: "next" },
  { name: "HTTP/1.0 without Host", raw: () => `GET /api/v1/health HTTP/1.0\r\n\r\n`, status: 200, route: "api" },
  {
    name: "absolute-form to the API",
    raw: (host) => line(`GET http://${host}/api/v1/health HTTP/1.1`)(host),
    status: 200,
    route: "api",
  },
  {
    name: "absolute-form, https and capitals",
    raw: (host) => line(`GET HTTPS://${host}/api/v1/health?x=1 HTTP/1.1`)(host),
    status: 200,
    route: "api",
  },
  {
    name: "absolute-form to a page",
    raw: (host) => line(`GET http://${host}/docs/errors HTTP/1.1`)(host),
    route: "next",
  },
  { name: "absolute-form without a path", raw: (host) => line(`GET http://${host} HTTP/1.1`)(host), route: "next" },
  {
    name: "absolute-form with a query and no path",
    raw: (host) => line(`GET http://${host}?a=1 HTTP/1.1`)(host),
    route: "next",
  },
  {
    name: "absolute-form with user info",
    raw: (host) => line(`GET http://user:pw@${host}/api/v1/health HTTP/1.1`)(host),
    status: 400,
    route: "front",
  },
  {
    name: "absolute-form without a host",
    raw: line("GET http:///api/v1/health HTTP/1.1"),
    status: 400,
    route: "front",
  },
  {
    name: "absolute-form of another scheme",
    raw: line("GET ftp://example.test/ HTTP/1.1"),
    status: 400,
    route: "node",
  },
  {
    name: "authority-form CONNECT",
    raw: () => `CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n`,
    status: 405,
    route: "front",
  },
  { name: "CONNECT with a path", raw: line("CONNECT /api/v1/health HTTP/1.1"), status: 405, route: "front" },
  { name: "TRACE to the API", raw: line("TRACE /api/v1/health HTTP/1.1"), status: 405, route: "front" },
  { name: "TRACE to a page", raw: line("TRACE /settings/tokens HTTP/1.1"), status: 405, route: "front" },
  { name: "authority-form with GET", raw: line("GET example.test:443 HTTP/1.1"), status: 400, route: "node" },
  { name: "OPTIONS *", raw: line("OPTIONS * HTTP/1.1"), status: 200, route: "front" },
  ...["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "TRACE", "QUERY"].map((method) => ({
    name: `${method} *`,
    raw:
      method === "POST" || method === "PUT"
        ? line(`${method} * HTTP/1.1`, "Content-Length: 2\r\n", "{}")
        : line(`${method} * HTTP/1.1`),
    status: 400,
    route: "front" as const,
  })),
  { name: "a path without a slash", raw: line("GET api/v1/health HTTP/1.1"), status: 400, route: "node" },
  { name: "a query without a path", raw: line("GET ?a=1 HTTP/1.1"), status: 400, route: "node" },
  {
    name: "an empty Host",
    raw: () => `GET /api/v1/health HTTP/1.1\r\nHost: \r\n${close}\r\n`,
    status: 400,
    route: "front",
  },
  {
    name: "a Host with a space",
    raw: () => `GET /api/v1/health HTTP/1.1\r\nHost: a b\r\n${close}\r\n`,
    status: 400,
    route: "front",
  },
  {
    name: "a Host with a path",
    raw: () => `GET /api/v1/health HTTP/1.1\r\nHost: evil.test/x\r\n${close}\r\n`,
    status: 400,
    route: "front",
  },
  {
    name: "a Host cut in its brackets",
    raw: () => `GET /docs/errors HTTP/1.1\r\nHost: [::1\r\n${close}\r\n`,
    status: 400,
    route: "front",
  },
  {
    name: "two Hosts",
    raw: (host) => `GET /api/v1/health HTTP/1.1\r\nHost: ${host}\r\nHost: evil.test\r\n${close}\r\n`,
    status: 400,
    route: "front",
  },
  {
    name: "HTTP/1.1 without Host",
    raw: () => `GET /api/v1/health HTTP/1.1\r\n${close}\r\n`,
    status: 400,
    route: "node",
  },
  { name: "a method in lower case", raw: line("get / HTTP/1.1"), status: 400, route: "node" },
  { name: "an unknown method", raw: line("BREW / HTTP/1.1"), status: 400, route: "node" },
  { name: "a space in the target", raw: line("GET /a b HTTP/1.1"), status: 400, route: "node" },
  { name: "a control character in the target", raw: line("GET /\u0001 HTTP/1.1"), status: 400, route: "node" },
  { name: "an unknown version", raw: line("GET / HTTP/9.9"), status: 400, route: "node" },
  { name: "the HTTP/2 preface", raw: () => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", status: 400, route: "node" },
  {
    name: "a TLS hello",
    raw: () => "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003",
    status: 400,
    route: "node",
  },
  { name: "a word", raw: () => "HELLO\r\n\r\n", status: 400, route: "node" },
  {
    name: "a target past the header limit",
    raw: line(`GET /${"a".repeat(20_000)} HTTP/1.1`),
    status: 431,
    route: "node",
  },
  {
    name: "an upgrade nobody offers",
    raw: (host) =>
      `GET /api/v1/health HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n\r\n`,
    status: 200,
    route: "api",
  },
  {
    name: "an upgrade to a page",
    raw: (host) =>
      `GET /docs/errors HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n\r\n`,
    route: "next",
  },
];
