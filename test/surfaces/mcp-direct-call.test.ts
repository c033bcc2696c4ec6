import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { directToolCall } from "@/lib/surfaces/mcp-direct-call";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, tokenFor } from "../support/factories";
import { routeFetch } from "./mcp-client";

/**
 * A plain tools/call is answered without the SDK's per-request server (lib/surfaces/mcp-direct-call.ts);
 * a batch of one message still goes through the SDK. Both must answer alike, whatever the call.
 */
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function post(token: string, body: unknown, headers: Record<string, string> = {}) {
  return routeFetch("http://localhost/api/mcp", {
    method: "POST",
    headers: { ...HEADERS, authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
}

// The fence around member data carries a fresh random boundary on every answer, a problem its request's id.
const unfenced = (text: string) =>
  text.replaceAll(/untrusted-data-[0-9a-f-]{36}/g, "untrusted-data-B").replaceAll(/req_[0-9a-f]{32}/g, "req_R");

async function answer(response: Response) {
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    cache: response.headers.get("cache-control"),
    body: JSON.parse(unfenced(await response.text())),
  };
}

describe("MCP tools/call, direct and through the SDK", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("answers each kind of call as the SDK does: result, tool error, directive, refusal, unknown tool", async () => {
    const ada = await makeMember();
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "Jazz", type: "music" } });
    // A title no other test's entry shares: the catalog is shared, and a search's hits must not change between
    // the direct call and the SDK's while other files write entries of their own.
    const title = `Mcpdirect ${randomUUID().slice(0, 8)}`;
    const songId = await makeCatalogEntry(title);
    const narrow = await tokenFor(ada.id, ["items:read"]);
    const item = await api("POST", "/items", {
      token: ada.token,
      body: { collection_id: collection.body.id, song_id: songId, note: 'Said "play it again"' },
    });
    expect(item.status).toBe(201);
    const calls: [string, string, Record<string, unknown> | undefined][] = [
      [ada.token, "collections_get", { id: collection.body.id }],
      [ada.token, "collections_get", { id: "00000000-0000-4000-8000-000000000000" }],
      [ada.token, "items_list", { limit: 500 }],
      // Pages, answered as the database's JSON text (lib/http/pagination.ts).
      [ada.token, "items_list", { limit: 5 }],
      [ada.token, "collections_list", {}],
      [ada.token, "play_song", { song_id: songId }],
      [ada.token, "search", { query: title }],
      [ada.token, "profile_get", undefined],
      [narrow, "todos_list", {}],
      [ada.token, "no_such_tool", {}],
    ];
    for (const [i, [token, name, args]] of calls.entries()) {
      // JSON-RPC ids are strings or numbers: the direct answer writes each back as it came.
      const message = {
        jsonrpc: "2.0",
        id: i % 2 ? i : `call-${i}`,
        method: "tools/call",
        params: { name, arguments: args },
      };
      const direct = await answer(await post(token, message));
      // Without MCP-Protocol-Version the server assumes 2025-03-26, which has batches: an array of one answer.
      const viaSdk = await answer(await post(token, [message]));
      expect({ ...direct, name }).toEqual({ ...viaSdk, body: viaSdk.body[0], name });
      expect(viaSdk.body).toHaveLength(1);
      expect(direct.status).toBe(200);
    }
    const refused = (
      await answer(
        await post(narrow, {
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "todos_list", arguments: {} },
        }),
      )
    ).body;
    expect(refused.result.isError).toBe(true);
    const unknown = (
      await answer(await post(ada.token, { jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "nope" } }))
    ).body;
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool: nope/) });
  });

  it("leaves to the SDK what it would refuse or answer otherwise", async () => {
    const ada = await makeMember();
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "profile_get", arguments: {} } };
    const version = await post(ada.token, call, { "mcp-protocol-version": "1999-01-01" });
    expect(version.status).toBe(400);
    expect((await version.json()).error.message).toMatch(/Unsupported protocol version/);
    expect((await post(ada.token, call, { accept: "application/json" })).status).toBe(406);
    const malformed = await routeFetch("http://localhost/api/mcp", {
      method: "POST",
      headers: { ...HEADERS, authorization: `Bearer ${ada.token}` },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe(-32700);
    const notification = await post(ada.token, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notification.status).toBe(202);
    const tooLarge = await post(ada.token, { ...call, padding: "x".repeat(1024 * 1024) });
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).error.message).toMatch(/Payload Too Large/);
  });

  it("takes the direct path only for one plain, well-formed call", () => {
    const headers = new Headers(HEADERS);
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "profile_get" } };
    expect(directToolCall(headers, call)).toEqual({ id: 3, params: { name: "profile_get" } });
    expect(directToolCall(headers, [call])).toBeUndefined();
    expect(directToolCall(headers, { ...call, method: "tools/list" })).toBeUndefined();
    expect(directToolCall(headers, { ...call, id: undefined })).toBeUndefined();
    expect(directToolCall(headers, { ...call, id: 1.5 })).toBeUndefined();
    expect(directToolCall(headers, { ...call, params: { name: "x", task: { ttl: 1000 } } })).toBeUndefined();
    expect(directToolCall(headers, { ...call, params: { arguments: {} } })).toBeUndefined();
    expect(directToolCall(new Headers({ ...HEADERS, "mcp-protocol-version": "2025-06-18" }), call)).toBeDefined();
    expect(directToolCall(new Headers({ ...HEADERS, "mcp-protocol-version": "1999-01-01" }), call)).toBeUndefined();
    expect(directToolCall(new Headers({ ...HEADERS, accept: "application/json" }), call)).toBeUndefined();
    expect(directToolCall(new Headers({ ...HEADERS, "content-type": "text/plain" }), call)).toBeUndefined();
  });
});
