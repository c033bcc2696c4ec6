import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Readable } from "node:stream";

type FetchHandler = (request: Request) => Promise<Response>;

/**
 * A fetch-style handler (Request → Response, what Next's route handlers are) behind node:http: the
 * API routes server.ts answers without Next's router, scripts/serve-rest.ts and the tests' listener.
 */
export function nodeListener(name: string, handle: FetchHandler): RequestListener {
  return (req, res) => void serveFetch(name, handle, req, res);
}

/** Answers one request with `handle`. An unexpected throw is logged under `name` and answered 500. */
export async function serveFetch(name: string, handle: FetchHandler, req: IncomingMessage, res: ServerResponse) {
  try {
    await send(await handle(toRequest(req)), res);
  } catch (error) {
    console.error(`${name}: unexpected error`, error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}

function toRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

/**
 * Writes the status, headers and body. A body of one chunk (every JSON answer) goes out in one
 * write with its headers and a Content-Length; a longer one (an export) streams with
 * back-pressure, and stops when the client goes away.
 */
async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const reader = response.body?.getReader();
  if (!reader) return void res.writeHead(response.status, headers).end();
  let current = await reader.read();
  let following = current.done ? current : await reader.read();
  if (following.done) {
    if (current.value && !headers["content-length"]) headers["content-length"] = String(current.value.byteLength);
    return void res.writeHead(response.status, headers).end(current.value);
  }
  res.writeHead(response.status, headers);
  while (!current.done) {
    if (!res.write(current.value) && !(await drained(res))) return void reader.cancel().catch(() => {});
    current = following;
    if (!following.done) following = await reader.read();
  }
  res.end();
}

/** Resolves true once the socket takes more, false if the client went away first. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}
