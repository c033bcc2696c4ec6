import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import { makeMember } from "../support/factories";
import { serveApi } from "../support/http-server";

let server: Awaited<ReturnType<typeof serveApi>>;
beforeAll(async () => {
  server = await serveApi();
});
afterAll(() => server.close());

const collection = JSON.stringify({ name: "Coded", type: "music" });
const gzip = (text: string) => Uint8Array.from(zlib.gzipSync(text));

async function collections(memberId: string): Promise<number> {
  const [row] = await asService((tx) =>
    tx.query<{ n: number }>("select count(*)::int as n from public.collections where owner_id = $1", [memberId]),
  );
  return row?.n ?? 0;
}

const post = (path: string, token: string, body: Uint8Array<ArrayBuffer> | string, coding?: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(coding === undefined ? {} : { "content-encoding": coding }),
    },
    body,
  });

// RFC 9110 §8.4.1 and §15.5.16: a content coding the server does not read is 415, with the codings
// it does read in Accept-Encoding (§12.5.3). The server reads none but identity.
describe("a request body with a Content-Encoding", () => {
  it("is refused 415 on REST with Accept-Encoding: identity, gzip or not, and writes nothing", async () => {
    const ada = await makeMember();
    for (const [coding, body] of [
      ["gzip", gzip(collection)],
      ["br", collection],
      ["deflate, gzip", collection],
      ["x-unknown", collection],
    ] as const) {
      const response = await post("/api/v1/collections", ada.token, body, coding);
      expect(response.status, coding).toBe(415);
      expect(response.headers.get("accept-encoding"), coding).toBe("identity");
      expect(await response.json(), coding).toMatchObject({
        code: "unsupported_media_type",
        detail: expect.stringContaining(coding),
      });
    }
    expect(await collections(ada.id)).toBe(0);
    for (const coding of ["identity", "IDENTITY", ""]) {
      expect((await post("/api/v1/collections", ada.token, collection, coding)).status, coding).toBe(201);
    }
  });

  it("is refused 415 on invoke, in its envelope", async () => {
    const ada = await makeMember();
    const call = gzip(JSON.stringify({ tool: "collections_create", input: JSON.parse(collection) }));
    const response = await post("/api/agent/invoke", ada.token, call, "gzip");
    expect(response.status).toBe(415);
    expect(response.headers.get("accept-encoding")).toBe("identity");
    expect(await response.json()).toMatchObject({ ok: false, error: { code: "unsupported_media_type" } });
    expect(await collections(ada.id)).toBe(0);
  });

  it("is refused 415 on MCP, as its other transport refusals are", async () => {
    const ada = await makeMember();
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "collections_create" } };
    const message = JSON.stringify({ ...call, params: { ...call.params, arguments: JSON.parse(collection) } });
    const response = await post("/api/mcp", ada.token, gzip(message), "gzip");
    expect(response.status).toBe(415);
    expect(response.headers.get("accept-encoding")).toBe("identity");
    expect((await response.json()).error.message).toMatch(/gzip/);
    expect(await collections(ada.id)).toBe(0);
  });
});
