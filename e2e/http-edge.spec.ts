import { expect, test } from "@playwright/test";
import { MAX_BODY_BYTES } from "../registry/limits";
import { REQUEST_LINES, rawRequest } from "../test/support/request-lines";

/**
 * server.ts itself, Next included, at the edge of HTTP: every form of request line on a raw socket
 * (test/support/request-lines.ts; test/surfaces/node-server.test.ts runs them without Next), and
 * answers given before a body is read, which every client must read. No browser.
 */
test("server.ts answers every request line below 500: origin-, absolute-, authority-, asterisk-form, garbage", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? "http://127.0.0.1:3200";
  const host = new URL(origin).host;
  const wrong: string[] = [];
  for (const row of REQUEST_LINES) {
    const { status } = await rawRequest(origin, row.raw(host));
    if (status < 200 || status >= 500 || (row.status && status !== row.status)) wrong.push(`${row.name}: ${status}`);
  }
  expect(wrong).toEqual([]);
  const options = await rawRequest(origin, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  expect(options.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
});

test("20 of 20 fetches of a 1.1 MB body read the 413; early 415s (type, charset) are read too", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const url = `${baseURL ?? "http://127.0.0.1:3200"}/api/v1/collections`;
  const send = async (type: string, body: Uint8Array<ArrayBuffer>) => {
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": type }, body });
      return {
        status: response.status,
        connection: response.headers.get("connection"),
        code: (await response.json()).code,
      };
    } catch (error) {
      return { error: String((error as Error & { cause?: { code?: string } }).cause?.code ?? error) };
    }
  };
  const tooLarge = new Uint8Array(1.1 * 1024 * 1024).fill(0x20);
  expect(tooLarge.byteLength).toBeGreaterThan(MAX_BODY_BYTES);
  const large = [];
  for (let i = 0; i < 20; i++) large.push(await send("application/json", tooLarge));
  expect(large).toEqual(Array(20).fill({ status: 413, connection: "close", code: "payload_too_large" }));
  const almost = new Uint8Array(MAX_BODY_BYTES - 1024).fill(0x20);
  for (const type of ["text/plain", "application/json; charset=latin1"]) {
    const refused = [];
    for (let i = 0; i < 20; i++) refused.push(await send(type, almost));
    expect(refused, type).toEqual(Array(20).fill({ status: 415, connection: "close", code: "unsupported_media_type" }));
  }
});
