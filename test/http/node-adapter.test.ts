import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DRAIN_LIMIT, nodeListener } from "@/lib/http/node-adapter";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handle: (request: Request) => Promise<Response>): Promise<string> {
  const server = http.createServer(nodeListener("test", handle));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A raw answer off the socket: what a client sees, framing included. */
function raw(
  url: string,
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

// server.ts answers the API through this adapter, so it must keep what Next's writer keeps.
describe("the node:http adapter of a fetch handler", () => {
  it("sends a one-chunk answer with its length, the request's method, path, query and body reaching the handler", async () => {
    const url = await serve(async (request) =>
      Response.json(
        {
          method: request.method,
          path: new URL(request.url).pathname,
          q: new URL(request.url).search,
          body: await request.text(),
        },
        { status: 201 },
      ),
    );
    const response = await fetch(`${url}/api/v1/items?x=1`, { method: "POST", body: "hello" });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-length")).toBe(String((await response.clone().arrayBuffer()).byteLength));
    expect(await response.json()).toEqual({ method: "POST", path: "/api/v1/items", q: "?x=1", body: "hello" });
  });

  it("keeps every Set-Cookie apart and sends no body to HEAD", async () => {
    const url = await serve(async () => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response("body", { headers });
    });
    const got = await raw(url);
    expect(got.headers["set-cookie"]).toEqual(["a=1; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "b=2; Path=/"]);
    expect(got.body).toBe("body");
    const head = await raw(url, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("streams a body of many chunks in order, and answers an empty one", async () => {
    const chunks = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(4, "0")}${"x".repeat(16_000)}\n`);
    const url = await serve(async (request) => {
      if (new URL(request.url).pathname === "/empty") return new Response(null, { status: 204 });
      const encoder = new TextEncoder();
      let next = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (next === chunks.length) controller.close();
          else controller.enqueue(encoder.encode(chunks[next++]));
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    });
    const got = await raw(`${url}/stream`);
    expect(got.headers["transfer-encoding"]).toBe("chunked");
    expect(got.body).toBe(chunks.join(""));
    const empty = await raw(`${url}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBe("");
  });

  it("answers 500 when the handler throws, and goes on serving", async () => {
    const url = await serve(async (request) => {
      if (new URL(request.url).pathname === "/boom") throw new Error("boom");
      return new Response("ok");
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      expect((await raw(`${url}/boom`)).status).toBe(500);
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
    expect((await raw(`${url}/fine`)).body).toBe("ok");
  });

  it("answers before the body is read with Connection: close and drains it; a body read to its end keeps the connection", async () => {
    const url = await serve(async (request) => {
      if (new URL(request.url).pathname === "/read") return new Response(await request.text());
      // Reads a little, then gives up on the rest, as the 413 of lib/http/body.ts does.
      const reader = request.body?.getReader();
      await reader?.read();
      await reader?.cancel();
      return Response.json({ refused: true }, { status: 413 });
    });
    const read = await fetch(`${url}/read`, { method: "POST", body: "hello" });
    expect(read.headers.get("connection")).toBe("keep-alive");
    expect(await read.text()).toBe("hello");
    const big = new Uint8Array(2 * 1024 * 1024);
    for (let i = 0; i < 10; i++) {
      const early = await fetch(`${url}/early`, { method: "POST", body: big });
      expect(early.status).toBe(413);
      expect(early.headers.get("connection")).toBe("close");
      expect(await early.json()).toEqual({ refused: true });
    }
  });

  it("stops draining at its bounds: a client that sends too much, or stalls, is cut off", async () => {
    const saved = { ...DRAIN_LIMIT };
    Object.assign(DRAIN_LIMIT, { bytes: 256 * 1024, ms: 300 });
    try {
      const url = await serve(async () => new Response("no", { status: 413 }));
      const { port } = new URL(url);
      const open = (declared: number) => {
        const socket = net.connect(Number(port), "127.0.0.1");
        socket.on("error", () => {});
        socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n`);
        const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
        return { socket, closed };
      };
      // Stalls after the head: answered at once, closed after DRAIN_LIMIT.ms.
      const stalled = open(1024);
      const answer = await new Promise<string>((resolve) =>
        stalled.socket.once("data", (chunk) => resolve(String(chunk))),
      );
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/connection: close/i);
      await stalled.closed;
      // Keeps sending past DRAIN_LIMIT.bytes: closed before it is done.
      const flood = open(64 * 1024 * 1024);
      let sent = 0;
      let closed = false;
      void flood.closed.then(() => (closed = true));
      const chunk = Buffer.alloc(64 * 1024);
      while (!closed && sent < 64 * 1024 * 1024) {
        sent += chunk.byteLength;
        if (!flood.socket.write(chunk))
          await Promise.race([new Promise((r) => flood.socket.once("drain", r)), flood.closed]);
      }
      await flood.closed;
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      Object.assign(DRAIN_LIMIT, saved);
    }
  });
});
