import { ServerResponse } from "node:http";

const INSTALLED = Symbol.for("pds.headersWithBody");

/**
 * Next sends a route's answer by flushing its headers on the body's first chunk and then writing
 * the body: two writes to the socket, so two system calls and two packets for every answer (the
 * largest native costs on the list's main thread, bench/results/profiles/10). Corked around the
 * flush, the headers wait in the socket until the end of the current tick, as Node's own
 * `res.write` keeps the body, and leave with it in one write. A streamed answer still gets its
 * headers at once: at the end of this tick, before anything waits for I/O.
 */
export function headersWithBody(flushHeaders: (this: ServerResponse) => void) {
  return function (this: ServerResponse): void {
    const socket = this.socket;
    if (!socket || socket.writableCorked > 0) {
      flushHeaders.call(this);
      return;
    }
    socket.cork();
    try {
      flushHeaders.call(this);
    } finally {
      process.nextTick(() => socket.uncork());
    }
  };
}

/**
 * Every response of this process sends its headers with its body. No longer installed by the service
 * (it was, from instrumentation.ts): bench/headers-ab.ts preloads this file into one of two servers
 * (node --import) to measure whether it still pays.
 */
export function sendHeadersWithBody(): void {
  const proto = ServerResponse.prototype as ServerResponse & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto.flushHeaders = headersWithBody(proto.flushHeaders);
  proto[INSTALLED] = true;
}

if (process.env.BENCH_HEADERS_WITH_BODY === "1") sendHeadersWithBody();
