import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SERVER_METHODS } from "@/lib/http/request-target";
import { MAX_BODY_BYTES } from "@/registry/limits";
import { serveApi } from "../support/http-server";
import { REQUEST_LINES, rawRequest } from "../support/request-lines";

// server.ts's own node:http server (lib/surfaces/node-server.ts), with the API's other routes in
// Next's place: every request line is answered, none with a 5xx. e2e/http-edge.spec.ts runs the
// same rows against server.ts itself, Next included.
let server: Awaited<ReturnType<typeof serveApi>>;
beforeAll(async () => {
  server = await serveApi();
});
afterAll(() => server.close());
const close = "Connection: close\r\n";

describe("server.ts's node:http server", () => {
  it("answers every form of request target, and lines that are none, below 500", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const host = new URL(server.url).host;
    try {
      for (const row of REQUEST_LINES) {
        const answer = await rawRequest(server.url, row.raw(host));
        expect(answer.status, row.name).toBeGreaterThanOrEqual(200);
        expect(answer.status, row.name).toBeLessThan(500);
        if (row.status) expect(answer.status, row.name).toBe(row.status);
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  }, 120_000);

  it("answers OPTIONS * with the server's methods, another method on * with a problem", async () => {
    const host = new URL(server.url).host;
    const options = await rawRequest(server.url, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(options.headers["content-length"]).toBe("0");
    const del = await rawRequest(server.url, `DELETE * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(del.status).toBe(400);
    expect(del.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(del.body)).toMatchObject({
      code: "malformed_request",
      status: 400,
      detail: expect.stringContaining("OPTIONS"),
    });
    const connect = await rawRequest(server.url, `CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n`);
    expect(connect.status).toBe(405);
    expect(JSON.parse(connect.body)).toMatchObject({ code: "method_not_allowed" });
  });

  it("answers 405 with the target's Allow to every method a fetch Request refuses (TRACE), before routing", async () => {
    // Next turns every request it routes into a fetch Request, which throws on these: a 500 there.
    const refused = http.METHODS.filter((method) => {
      try {
        new Request("http://localhost/", { method });
        return false;
      } catch {
        return true;
      }
    });
    expect(refused).toContain("TRACE");
    const host = new URL(server.url).host;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const method of refused.filter((method) => method !== "CONNECT")) {
        for (const [path, allow] of [
          ["/api/v1/health", "GET"],
          ["/api/v1/collections", "GET, POST"],
          ["/api/v1/collections/col_1", "GET, PATCH, DELETE"],
          ["/api/agent/invoke", "POST"],
          ["/api/mcp", "POST"],
          ["/docs/errors", SERVER_METHODS],
          ["/settings/tokens?x=1", SERVER_METHODS],
        ]) {
          const answer = await rawRequest(server.url, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${close}\r\n`);
          const name = `${method} ${path}`;
          expect(answer.status, name).toBe(405);
          expect(answer.headers.allow, name).toBe(allow);
          expect(answer.headers["content-type"], name).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(answer.body), name).toMatchObject({ code: "method_not_allowed", status: 405 });
        }
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("answers 405 with the route's Allow, as a problem, to every method an API route does not offer", async () => {
    // PROPFIND, QUERY…: Next answers a method it does not route with a bare 400 on a route file.
    const methods = http.METHODS.filter((method) => method !== "CONNECT" && method !== "TRACE" && method !== "OPTIONS");
    const host = new URL(server.url).host;
    const wrong: string[] = [];
    for (const [path, allow] of [
      ["/api/v1/health", "GET"],
      ["/api/v1/openapi.json", "GET"],
      ["/api/v1/collections", "GET, POST"],
      ["/api/v1/collections/col_1", "GET, PATCH, DELETE"],
      ["/api/agent/tools", "GET"],
      ["/api/agent/invoke", "POST"],
      ["/api/mcp", "POST"],
    ] as const) {
      const offered = allow.split(", ");
      for (const method of methods.filter((m) => !offered.includes(m) && !(m === "HEAD" && offered.includes("GET")))) {
        const answer = await rawRequest(server.url, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${close}\r\n`);
        const type = answer.headers["content-type"] ?? "";
        const problem = type.startsWith("application/problem+json");
        const code =
          method === "HEAD" && problem ? "method_not_allowed" : problem ? JSON.parse(answer.body).code : type;
        const got = `${method} ${path}: ${answer.status} ${answer.headers.allow} ${code}`;
        if (got !== `${method} ${path}: 405 ${allow} method_not_allowed`) wrong.push(got);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("serves an absolute-form request as its path, with the URI's authority as Host", async () => {
    const answer = await rawRequest(
      server.url,
      `GET ${server.url}/api/v1/health HTTP/1.1\r\nHost: elsewhere.test\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: "ok" });
  });
});

// A refused body is answered before it is read: closing then would reset the connection under a
// client still sending, and it might never read the answer (6 of 20 did).
describe("an answer given before the body is read", () => {
  const tooLarge = new Uint8Array(1.1 * 1024 * 1024).fill(0x20);
  const send = async (init: RequestInit & { duplex?: "half" }) => {
    try {
      const response = await fetch(`${server.url}/api/v1/collections`, init);
      return { status: response.status, connection: response.headers.get("connection"), body: await response.json() };
    } catch (error) {
      return { error: String((error as Error & { cause?: { code?: string } }).cause?.code ?? error) };
    }
  };

  it("is read by 20 of 20 clients sending 1.1 MB: 413, declared or streamed, with Connection: close", async () => {
    expect(tooLarge.byteLength).toBeGreaterThan(MAX_BODY_BYTES);
    const json = { "content-type": "application/json" };
    for (const streamed of [false, true]) {
      const answers = [];
      for (let i = 0; i < 20; i++) {
        const body = streamed ? new Blob([tooLarge]).stream() : tooLarge;
        answers.push(await send({ method: "POST", headers: json, body, duplex: "half" }));
      }
      const expected = {
        status: 413,
        connection: "close",
        body: expect.objectContaining({ code: "payload_too_large" }),
      };
      expect(answers, streamed ? "streamed" : "declared").toEqual(Array(20).fill(expected));
    }
  }, 120_000);

  it("is read by 20 of 20 clients: 415 for another type or charset, before the body is read", async () => {
    const body = new Uint8Array(MAX_BODY_BYTES - 1024).fill(0x20);
    for (const type of ["text/plain", "application/json; charset=latin1"]) {
      const answers = [];
      for (let i = 0; i < 20; i++)
        answers.push(await send({ method: "POST", headers: { "content-type": type }, body }));
      const expected = {
        status: 415,
        connection: "close",
        body: expect.objectContaining({ code: "unsupported_media_type" }),
      };
      expect(answers, type).toEqual(Array(20).fill(expected));
    }
  }, 120_000);
});
