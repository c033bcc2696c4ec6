import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { DRAIN_LIMIT } from "../../registry/limits.ts";

export { DRAIN_LIMIT };

type FetchHandler = (request: Request) => Promise<Response>;

// What is left of a request body when its answer is ready (an early 413, 415, 401) is read and
// dropped, up to DRAIN_LIMIT, before the socket closes: closing a socket with unread bytes in it
// makes the kernel send a reset, and the client's stack may drop the answer it had not read yet.
// A client that sends more than that, or for longer, is cut off.

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
    await send(await handle(toRequest(req)), req, res);
  } catch (error) {
    console.error(`${name}: unexpected error`, error);
    if (res.headersSent) return void res.end();
    await sendResponse(new Response(null, { status: 500 }), req, res);
  }
}

/** Sends an answer made without the handler (lib/http/request-target.ts); a failed write drops the socket. */
export function sendResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return send(response, req, res).catch(() => void res.destroy());
}

/** The request as a fetch Request. Its target and Host are already checked (lib/http/request-target.ts). */
function toRequest(req: IncomingMessage): Request {
  // Concatenated, not resolved: new URL("//x", base) would read "x" as a host.
  const url = new URL(`http://${req.headers.host || "127.0.0.1"}${req.url ?? "/"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? bodyOf(req) : undefined,
    duplex: "half",
  } as RequestInit);
}

/**
 * The body as a web stream, read only as the handler asks. Unlike Readable.toWeb, cancelling it (the
 * 413 of lib/http/body.ts) leaves the socket open: the rest is drained after the answer (drain below).
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let detach: (() => void) | undefined;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!detach) {
          const onData = (chunk: Buffer) => {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            req.pause();
          };
          const onEnd = () => {
            detach?.();
            controller.close();
          };
          const onGone = () => {
            detach?.();
            controller.error(new Error("the client went away before the body ended"));
          };
          req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
          detach = () => req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
        }
        req.resume();
      },
      cancel() {
        detach?.();
        detach = () => {};
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Writes the status, headers and body. A body of one chunk (every JSON answer) goes out in one
 * write with its headers and a Content-Length; a longer one (an export) streams with
 * back-pressure, and stops when the client goes away. An answer given before the request's body
 * was read to its end says Connection: close, and the connection closes once the body is drained.
 */
async function send(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const early = !req.complete;
  if (early) headers.connection = "close";
  // The usual case ends with the body in one call (headers and body in one write, as before the drain).
  const end = (last?: Uint8Array) => {
    if (!early) return void res.end(last);
    if (last) res.write(last);
    return drain(req).then(() => void res.end());
  };
  const reader = response.body?.getReader();
  if (!reader) {
    if (early && !headers["content-length"] && response.status !== 204 && response.status !== 304)
      headers["content-length"] = "0";
    res.writeHead(response.status, headers);
    return end();
  }
  let current = await reader.read();
  let following = current.done ? current : await reader.read();
  if (following.done) {
    if (current.value && !headers["content-length"]) headers["content-length"] = String(current.value.byteLength);
    res.writeHead(response.status, headers);
    return end(current.value);
  }
  res.writeHead(response.status, headers);
  while (!current.done) {
    if (!res.write(current.value) && !(await drained(res))) return void reader.cancel().catch(() => {});
    current = following;
    if (!following.done) following = await reader.read();
  }
  return end();
}

/**
 * Reads and drops what is left of a request body, up to DRAIN_LIMIT; resolves once it has ended,
 * the client went away or the limit is reached (Connection: close then ends the socket).
 */
function drain(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let left = DRAIN_LIMIT.bytes;
    const done = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", done).off("close", done).off("error", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      left -= chunk.byteLength;
      if (left < 0) done();
    };
    const timer = setTimeout(done, DRAIN_LIMIT.ms);
    req.on("data", onData).once("end", done).once("close", done).once("error", done);
    req.resume();
  });
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
