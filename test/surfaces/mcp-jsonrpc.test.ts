import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { makeMember } from "../support/factories";
import { connectMcp, routeFetch } from "./mcp-client";

/**
 * The JSON-RPC 2.0 error codes the endpoint answers for messages it cannot run (§5.1): -32600 for
 * what is not a request, -32602 for a request whose params its method does not take, and batches
 * only where the negotiated MCP version still has them.
 */
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function send(token: string, text: string, headers: Record<string, string> = {}) {
  const response = await routeFetch("http://localhost/api/mcp", {
    method: "POST",
    headers: { ...HEADERS, authorization: `Bearer ${token}`, ...headers },
    body: text,
  });
  const answer = await response.text();
  return { status: response.status, body: answer ? JSON.parse(answer) : undefined };
}

const post = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  send(token, JSON.stringify(body), headers);

const call = (params?: unknown) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  ...(params === undefined ? {} : { params }),
});

describe("MCP JSON-RPC errors", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("answers a tools/call whose params are not a CallToolRequest's with -32602 and a readable message", async () => {
    const ada = await makeMember();
    const cases: [unknown, RegExp][] = [
      [{ name: "profile_get", arguments: [] }, /params\/arguments.*object/],
      [{ name: "profile_get", arguments: "x" }, /params\/arguments.*object/],
      [{ name: "profile_get", arguments: null }, /params\/arguments.*object/],
      [{ arguments: {} }, /params\/name.*string/],
      [undefined, /params.*object/],
    ];
    for (const [params, names] of cases) {
      const answer = await post(ada.token, call(params));
      expect(answer.status, JSON.stringify(params)).toBe(200);
      expect(answer.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: ErrorCode.InvalidParams } });
      const { message } = answer.body.error;
      expect(message).toMatch(/^Invalid params: /);
      expect(message).toMatch(names);
      // One line a person reads, not the validator's issue list.
      expect(message).not.toMatch(/\n|"code":|^\[/);
    }
    const initialize = await post(ada.token, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(initialize.body.error).toMatchObject({ code: ErrorCode.InvalidParams, message: /protocolVersion/ });
  });

  it("answers valid JSON that is not a JSON-RPC message with 400 -32600 Invalid Request, not a parse error", async () => {
    const ada = await makeMember();
    const cases: unknown[] = [
      { jsonrpc: "1.0", id: 1, method: "tools/list" },
      { id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: null, method: "tools/list" },
      { jsonrpc: "2.0", id: 1.5, method: "tools/list" },
      { jsonrpc: "2.0", id: 1, method: 5 },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: "x" },
      { jsonrpc: "2.0", id: 1 },
      {},
      "hello",
      3,
      [],
    ];
    for (const body of cases) {
      const answer = await post(ada.token, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({
        jsonrpc: "2.0",
        error: { code: ErrorCode.InvalidRequest, message: expect.stringMatching(/^Invalid Request: \S/) },
      });
    }
    const refused = await post(ada.token, { jsonrpc: "1.0", id: 1, method: "tools/list" });
    expect(refused.body.error.message).toMatch(/"jsonrpc" must be "2\.0"/);
    expect((await send(ada.token, "{not json")).body.error.code).toBe(ErrorCode.ParseError);
  });

  it("refuses a tools/list cursor it never gave with -32602: the list is one page, without nextCursor", async () => {
    const ada = await makeMember();
    const client = await connectMcp(ada.token);
    open.push(client);
    const all = await client.listTools();
    expect(all.nextCursor).toBeUndefined();
    await expect(client.listTools({ cursor: "zzz" })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const raw = await post(ada.token, { jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: "zzz" } });
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ id: 2, error: { code: ErrorCode.InvalidParams, message: /cursor/ } });
  });

  it("refuses a batch on MCP 2025-06-18 and later, and answers one as an array on the versions that had them", async () => {
    const ada = await makeMember();
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const refused = await post(ada.token, [ping], { "mcp-protocol-version": version });
      expect(refused.status, version).toBe(400);
      expect(refused.body).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest, message: /batch/i } });
    }
    // An initialize proposes its version itself: no batch for one that proposes 2025-06-18.
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    expect((await post(ada.token, [initialize])).body.error.code).toBe(ErrorCode.InvalidRequest);

    // Without the header the server assumes 2025-03-26 (the transport spec), which had batches.
    for (const headers of [{ "mcp-protocol-version": "2025-03-26" }, {}] as Record<string, string>[]) {
      const one = await post(ada.token, [ping], headers);
      expect(one.status).toBe(200);
      expect(one.body).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    }
    const mixed = await post(ada.token, [ping, { ...call({ name: "profile_get", arguments: [] }), id: 2 }], {
      "mcp-protocol-version": "2025-03-26",
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body).toHaveLength(2);
    expect(mixed.body).toContainEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(mixed.body).toContainEqual(
      expect.objectContaining({ id: 2, error: expect.objectContaining({ code: ErrorCode.InvalidParams }) }),
    );
    const notifications = await post(ada.token, [{ jsonrpc: "2.0", method: "notifications/initialized" }], {
      "mcp-protocol-version": "2025-03-26",
    });
    expect(notifications.status).toBe(202);
  });
});
