import { describe, expect, it } from "vitest";
import { LIMIT_HEADERS } from "@/registry/limits";
import { makeMember } from "../support/factories";
import { routeFetch } from "../surfaces/mcp-client";
import { SPEC_LIMITS, useEnv } from "./test-setup";

/** MCP under the token's rate limit, through the real route (memory store, or Redis where REDIS_URL is set). */
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** version: the MCP-Protocol-Version header, none for an initialize (which proposes its own). */
async function post(token: string, body: unknown, version: string | null = "2025-06-18") {
  const response = await routeFetch("http://localhost/api/mcp", {
    method: "POST",
    headers: {
      ...HEADERS,
      ...(version === null ? {} : { "mcp-protocol-version": version }),
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

function expectRefused(answer: Awaited<ReturnType<typeof post>>, id: unknown) {
  expect(answer.status).toBe(429);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Number(answer.headers.get(LIMIT_HEADERS.retryAfter))).toBeGreaterThanOrEqual(1);
  expect(answer.headers.get(LIMIT_HEADERS.policy)).toMatch(/^"token";q=30;w=\d+$/);
  expect(answer.headers.get(LIMIT_HEADERS.state)).toMatch(/^"token";r=0;t=\d+$/);
  expect(answer.headers.get("request-id")).toBeTruthy();
  expect(answer.body).toMatchObject({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32000,
      message: expect.stringMatching(/^Rate limit reached/),
      data: { status: 429, code: "rate_limited", "violated-policies": ["token"] },
    },
  });
  expect(answer.body.error.code).not.toBe(-32603);
}

describe("MCP rate limits", () => {
  const setEnv = useEnv();

  it("counts every authenticated MCP request and says so in the RateLimit fields", async () => {
    setEnv(SPEC_LIMITS);
    const ada = await makeMember();
    const answers = [
      await post(ada.token, INITIALIZE, null),
      await post(ada.token, { jsonrpc: "2.0", method: "notifications/initialized" }),
      await post(ada.token, { jsonrpc: "2.0", id: 2, method: "ping" }),
      await post(ada.token, { jsonrpc: "2.0", id: 3, method: "tools/list" }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 202, 200, 200]);
    for (const answer of answers) expect(answer.headers.get(LIMIT_HEADERS.policy)).toBe('"token";q=30;w=15');
    // 29, 28, 27, 26 left, or one more where a slow machine earned a token back in between.
    for (const [i, answer] of answers.entries()) {
      expect(answer.headers.get(LIMIT_HEADERS.state)).toMatch(new RegExp(`^"token";r=(${29 - i}|${30 - i});t=1$`));
    }
  });

  it("answers a rate-limited request of any method 429 with Retry-After, the RateLimit fields and rate_limited", async () => {
    // The spec's bucket, with a refill too slow to add a token while the burst runs.
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_REFILL_PER_SECOND: "0.02" });
    const ada = await makeMember();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(ada.token, { jsonrpc: "2.0", id: i, method: "tools/list" })),
    );
    const passed = burst.filter((answer) => answer.status === 200);
    expect(passed).toHaveLength(30);
    for (const answer of passed) {
      expect(answer.body.result.tools.length).toBeGreaterThan(0);
      expect(answer.headers.get(LIMIT_HEADERS.state)).toMatch(/^"token";r=\d+;t=\d+$/);
    }
    const refused = burst.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(10);
    for (const answer of refused) expectRefused(answer, answer.body.id);
    expect(refused.map((answer) => answer.body.id).every((id) => typeof id === "number")).toBe(true);

    expectRefused(await post(ada.token, INITIALIZE, null), 1);
    expectRefused(await post(ada.token, { jsonrpc: "2.0", id: "p", method: "ping" }), "p");
    expectRefused(await post(ada.token, { jsonrpc: "2.0", method: "notifications/initialized" }), null);
    expectRefused(await post(ada.token, [{ jsonrpc: "2.0", id: 1, method: "ping" }], "2025-03-26"), null);
  });

  it("keeps a rate-limited tools/call a tool error the model reads, with the 429 problem and the fields", async () => {
    setEnv({ ...SPEC_LIMITS, RATE_LIMIT_CAPACITY: "1", RATE_LIMIT_REFILL_PER_SECOND: "0.01" });
    const ada = await makeMember();
    const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "profile_get", arguments: {} } };
    const first = await post(ada.token, call);
    expect(first.body.result.isError).toBeFalsy();
    const refused = await post(ada.token, call);
    expect(refused.status).toBe(200);
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result.content[0].text).toContain('"code":"rate_limited"');
    expect(Number(refused.headers.get(LIMIT_HEADERS.retryAfter))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get(LIMIT_HEADERS.state)).toMatch(/^"token";r=0;t=\d+$/);
  });
});
