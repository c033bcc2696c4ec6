import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Browser } from "@playwright/test";
import { EMBEDDED_DATABASE_NODE_FLAGS } from "../scripts/server-runtime";
import { createToken, expect, pollHealth, signUp, test } from "./support";

/**
 * Both ways into the API answer alike. The rest of the suite runs server.ts, which answers the API
 * routes itself (lib/surfaces/api-routes.ts) and hands the rest to Next; Vercel and `next dev` serve
 * the generated route files under app/ through Next's own router instead. This spec starts
 * `next start` on the same build, with an embedded database of its own, and sends both servers the
 * same representative requests: auth, list, create, a fixed and a parametrised path, 404, 405 with
 * Allow, a verb no route file exports, health, the tool catalog and CORS preflight.
 */
const ROOT = process.cwd();
const NEXT_PORT = Number(process.env.E2E_PORT ?? 3200) + 60;
const NEXT_ORIGIN = `http://127.0.0.1:${NEXT_PORT}`;
const NEXT_DIR = path.join(ROOT, ".data", "pglite-e2e-next");

let next: ChildProcess | undefined;
let output = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fs.rmSync(NEXT_DIR, { recursive: true, force: true });
  // Next's own server, routing to the generated route files: as `next start` runs on a host without server.ts.
  // Through node, not Next's bin: NODE_OPTIONS refuses the embedded database's flag, and `next start` serves in
  // the process it is started in.
  const nextBin = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
  const args = [...EMBEDDED_DATABASE_NODE_FLAGS, nextBin, "start", "-H", "127.0.0.1", "-p", String(NEXT_PORT)];
  next = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PGLITE_DIR: NEXT_DIR,
      DATABASE_URL: "",
      REDIS_URL: "",
      WEBHOOKS_WORKER: "off",
      UPKEEP_TIMER: "off",
      RESOLVER_PROVIDERS: "off",
      CORS_ORIGINS: "http://app.example.test",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  next.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  next.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const child = next;
  const ready = await pollHealth(
    NEXT_ORIGIN,
    child,
    () => output,
    async (response) => (response.ok ? true : undefined),
  );
  expect(ready, `next start did not answer /api/v1/health:\n${output}`).toBe(true);
});

test.afterAll(async () => {
  if (next?.pid) process.kill(-next.pid, "SIGTERM");
  fs.rmSync(NEXT_DIR, { recursive: true, force: true });
});

/** A member and a token on the server at `origin`, made through its pages (sign-up, tokens). */
async function tokenOn(browser: Browser, origin: string): Promise<string> {
  const context = await browser.newContext({ baseURL: origin });
  try {
    const page = await context.newPage();
    await signUp(page);
    return await createToken(page, "router", ["collections:read", "collections:write"]);
  } finally {
    await context.close();
  }
}

interface Answer {
  status: number;
  type: string | null;
  allow: string | null;
  code?: string;
  authenticate?: string | null;
}

/** The same requests to one server; what each answered, without what differs by member or time. */
async function contract(origin: string, token: string): Promise<Record<string, Answer>> {
  const auth = { authorization: `Bearer ${token}` };
  const answers: Record<string, Answer> = {};
  const call = async (name: string, pathname: string, init: RequestInit = {}) => {
    const response = await fetch(`${origin}${pathname}`, init);
    const type = response.headers.get("content-type");
    const text = await response.text();
    const body = type?.includes("json") && text ? (JSON.parse(text) as Record<string, unknown>) : {};
    answers[name] = {
      status: response.status,
      type: type?.split(";")[0] ?? null,
      allow: response.headers.get("allow"),
      ...(typeof body.code === "string" ? { code: body.code } : {}),
      // Each server names its own origin (SITE_URL defaults to its own port) in the resource metadata URL.
      ...(response.status === 401
        ? {
            authenticate: response.headers
              .get("www-authenticate")
              ?.replace(/http:\/\/[^/]+\/\.well-known/, "<origin>/.well-known"),
          }
        : {}),
    };
    return body;
  };
  await call("no token", "/api/v1/collections");
  await call("malformed token", "/api/v1/collections", { headers: { authorization: "Bearer pds_nope" } });
  const created = await call("create", "/api/v1/collections", {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "Records", type: "music" }),
  });
  const list = await call("list", "/api/v1/collections?limit=5", { headers: auth });
  expect((list.data as { id: string }[]).map((row) => row.id)).toContain(created.id);
  await call("read one (catch-all route)", `/api/v1/collections/${created.id}`, { headers: auth });
  await call("invalid create", "/api/v1/collections", {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name: 7 }),
  });
  await call("not found", `/api/v1/collections/${randomUUID()}`, { headers: auth });
  await call("unknown resource", "/api/v1/no-such-resource", { headers: auth });
  await call("405 on a fixed path", "/api/v1/collections", { method: "PUT", headers: auth });
  await call("405 on a parametrised path", `/api/v1/collections/${created.id}`, { method: "POST", headers: auth });
  await call("delete", `/api/v1/collections/${created.id}`, { method: "DELETE", headers: auth });
  await call("health", "/api/v1/health");
  await call("tool catalog", "/api/agent/tools", { headers: auth });
  // MCP (stateless Streamable HTTP): server.ts answers it directly too.
  const mcp = (
    id: number,
    method: string,
    params: Record<string, unknown>,
    headers: Record<string, string> = auth,
  ) => ({
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  const initialize = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "router", version: "1" } };
  await call("mcp without a token", "/api/mcp", mcp(1, "initialize", initialize, {}));
  await call("mcp initialize", "/api/mcp", mcp(1, "initialize", initialize));
  const listed = await call(
    "mcp tools/call",
    "/api/mcp",
    mcp(2, "tools/call", { name: "collections_list", arguments: {} }),
  );
  expect(listed.result, "tools/call answered a result").toBeDefined();
  await call("mcp GET", "/api/mcp", { headers: auth });
  await call("preflight", "/api/v1/collections", {
    method: "OPTIONS",
    headers: { origin: "http://app.example.test", "access-control-request-method": "POST" },
  });
  return answers;
}

test("the API answers the same through Next's router (next start) as through server.ts", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const direct = baseURL ?? "http://127.0.0.1:3200";
  const viaServer = await contract(direct, await tokenOn(browser, direct));
  const viaNext = await contract(NEXT_ORIGIN, await tokenOn(browser, NEXT_ORIGIN));

  const problem = "application/problem+json";
  expect(viaNext).toMatchObject({
    "no token": { status: 401, type: problem, code: "unauthorized", authenticate: expect.stringMatching(/^Bearer/) },
    "malformed token": { status: 401, type: problem, code: "unauthorized" },
    create: { status: 201, type: "application/json" },
    list: { status: 200, type: "application/json" },
    "read one (catch-all route)": { status: 200, type: "application/json" },
    "invalid create": { status: 422, type: problem, code: "invalid_request" },
    "not found": { status: 404, type: problem, code: "not_found" },
    "unknown resource": { status: 404, type: problem, code: "not_found" },
    "405 on a fixed path": {
      status: 405,
      type: problem,
      code: "method_not_allowed",
      allow: expect.stringContaining("GET"),
    },
    "405 on a parametrised path": {
      status: 405,
      type: problem,
      code: "method_not_allowed",
      allow: expect.stringContaining("DELETE"),
    },
    delete: { status: 204 },
    health: { status: 200, type: "application/json" },
    "tool catalog": { status: 200, type: "application/json" },
    "mcp without a token": { status: 401, type: problem, authenticate: expect.stringMatching(/^Bearer/) },
    "mcp initialize": { status: 200, type: "application/json" },
    "mcp tools/call": { status: 200, type: "application/json" },
    "mcp GET": { status: 405, allow: "POST" },
    preflight: { status: 204 },
  });
  expect(viaNext).toEqual(viaServer);
});
