import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { headersWithBody } from "../../bench/headers-with-body.ts";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A server answering the way Next's response writer does (pipe-readable.js): in promise jobs (a
 * stream's pipeTo), headers flushed on the body's first chunk, the chunk written, the answer ended
 * a job later. It counts the writes each answer makes to its socket.
 */
async function serve(corked: boolean, bodyAfterMs = 0) {
  const writes: number[] = [];
  const server = http.createServer((req, res) => {
    if (corked) res.flushHeaders = headersWithBody(res.flushHeaders);
    const socket = req.socket as typeof req.socket & { _write: () => void; _writev: () => void };
    let count = 0;
    for (const method of ["_write", "_writev"] as const) {
      const original = socket[method];
      socket[method] = function (this: unknown, ...args: unknown[]) {
        count++;
        return (original as (...a: unknown[]) => void).apply(this, args);
      };
    }
    res.setHeader("content-type", "application/json");
    const send = () => {
      res.write('{"data":[]}');
      queueMicrotask(() => res.end());
    };
    queueMicrotask(() => {
      res.flushHeaders();
      if (bodyAfterMs) setTimeout(() => queueMicrotask(send), bodyAfterMs);
      else send();
    });
    res.on("finish", () => writes.push(count));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, writes };
}

async function get(url: string) {
  const started = Date.now();
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(url, resolve).on("error", reject),
  );
  const headersAfterMs = Date.now() - started;
  let body = "";
  for await (const chunk of response) body += chunk;
  return { status: response.statusCode, body, headersAfterMs };
}

describe("an answer's headers and body", () => {
  it("leave in one socket write when corked around the flush (two without)", async () => {
    const plain = await serve(false);
    const corked = await serve(true);
    expect(await get(plain.url)).toMatchObject({ status: 200, body: '{"data":[]}' });
    expect(await get(corked.url)).toMatchObject({ status: 200, body: '{"data":[]}' });
    expect(plain.writes).toEqual([2]);
    expect(corked.writes).toEqual([1]);
  });

  it("still reach the client at once when the body comes later (a stream)", async () => {
    const corked = await serve(true, 400);
    const answer = await get(corked.url);
    expect(answer.body).toBe('{"data":[]}');
    expect(answer.headersAfterMs).toBeLessThan(300);
  });
});
