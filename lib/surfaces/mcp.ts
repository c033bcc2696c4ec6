import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { requestBodyTooLargeMessage } from "@modelcontextprotocol/sdk/server/requestBody.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { acceptedScopes, capabilityByTool } from "../../registry/capabilities.ts";
import type { Caller } from "../auth/caller.ts";
import { authenticate, insufficientScope } from "../http/authenticate.ts";
import { ACCEPTED_CODINGS, foreignCharset, foreignCoding, MAX_BODY_BYTES, readCapped } from "../http/body.ts";
import { everyMethod } from "../http/method-not-allowed.ts";
import { originRelation } from "../http/origin.ts";
import { ApiError, asApiError } from "../http/problem.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { problemResponse } from "../http/respond.ts";
import { MEMBER_DATA_IN_PROSE } from "../../registry/resource-prose.ts";
import { invokeTool } from "./invoke.ts";
import { answerToolCall, directToolCall } from "./mcp-direct-call.ts";
import { batchAnswer, checkBody, jsonRpcAnswer, jsonRpcRefusal, type Message } from "./mcp-messages.ts";
import { errorResult, successResult, type ToolAnswer } from "./mcp-results.ts";
import { toolsFor, toolDefinition, toVendorShape } from "./tools.ts";
import { rateLimitGeneral } from "./tools-http.ts";

const SERVER_INFO = { name: "personal-data-service", version: "1.0.0" };
const INSTRUCTIONS =
  `Tools over the member's personal data (${MEMBER_DATA_IN_PROSE}). ` +
  "The same tools, scopes and rules as the REST API at /api/v1. Tools whose result is a directive (play_song, listen, open_url) run in the member's browser. " +
  "The member sees every write made with this token under Settings → Activity; when the member asks to take one back, activity_undo undoes this token's last update or delete.";

interface CallContext {
  caller: Caller;
  request: Request;
  requestId: string;
  /** Rate-limit headers the call spent, for the HTTP answer. */
  spent: Record<string, string>;
}

/** A tools/call, through the shared pipeline: what both the SDK's server and the direct path run. */
async function callTool(context: CallContext, params: CallToolRequest["params"]): Promise<ToolAnswer> {
  const capability = capabilityByTool.get(params.name);
  if (!capability) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  const outcome = await invokeTool(capability.tool, params.arguments ?? {}, {
    requestId: context.requestId,
    headers: context.request.headers,
    caller: context.caller,
    resource: "mcp",
    surface: "mcp",
  });
  Object.assign(context.spent, outcome.headers);
  const body = outcome.body;
  if (!body.ok) return errorResult(body.error);
  return successResult(capability, "directive" in body ? body.directive : body.result, context.caller.limits);
}

/**
 * One MCP server per HTTP request (stateless Streamable HTTP: no session, nothing kept between
 * requests, so any instance can answer). The Bearer token is checked before MCP sees the request;
 * tools/list shows what its scopes allow and tools/call runs the shared pipeline.
 */
function buildServer(context: CallContext) {
  const { caller } = context;
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolsFor(caller.scopes, caller.limits).map(
      (capability) =>
        toVendorShape(toolDefinition(capability, caller.limits), capability, "mcp", caller.limits) as never,
    ),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => (await callTool(context, call.params)).result);
  return server;
}

export async function handleMcp(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    if (request.method !== "POST") {
      throw new ApiError("method_not_allowed", "This MCP server is stateless: send JSON-RPC with POST.", {
        headers: { Allow: "POST" },
      });
    }
    // A browser page on another site must not drive the server through a member's browser (DNS
    // rebinding); API clients send no Origin at all.
    if (originRelation(request.headers) === "cross") {
      // The answer the SDK's own Origin guard gives: a JSON-RPC error with 403.
      return jsonRpcRefusal(403, "Forbidden: invalid Origin", requestId);
    }
    // The SDK would read a body declared in another charset as UTF-8; JSON is UTF-8 (RFC 8259), as on REST.
    const charset = foreignCharset(request.headers.get("content-type") ?? "");
    if (charset !== undefined) {
      const message = `Unsupported Media Type: JSON is UTF-8 (RFC 8259); send charset=utf-8 or no charset, not charset=${charset || "(empty)"}`;
      return jsonRpcRefusal(415, message, requestId);
    }
    const coding = foreignCoding(request.headers);
    if (coding !== undefined) {
      const message = `Unsupported Media Type: Content-Encoding ${coding} is not read; send the body unencoded (identity)`;
      return jsonRpcRefusal(415, message, requestId, { headers: ACCEPTED_CODINGS });
    }
    const caller = await authenticate(request.headers, "mcp");
    const body = await readMessage(request);
    const refused = outOfScopeCall(body.parsed, caller);
    if (refused) return refused;
    const context: CallContext = { caller, request, requestId, spent: {} };
    const response = await answer(context, body);
    for (const [name, value] of Object.entries({
      ...context.spent,
      "Request-Id": requestId,
      "Cache-Control": "no-store",
    })) {
      response.headers.set(name, value);
    }
    return response;
  } catch (error) {
    return problemResponse(asApiError(error, requestId), requestId);
  }
}

/** The answer to an authenticated POST: refused as JSON-RPC says, a direct tools/call, or the SDK's. */
async function answer(context: CallContext, body: ReadBody): Promise<Response> {
  const { request, requestId } = context;
  if (body.tooLarge) return jsonRpcRefusal(413, requestBodyTooLargeMessage(MAX_BODY_BYTES), requestId);
  const checked = body.parsed === undefined ? undefined : checkBody(request.headers, body.parsed);
  // Not JSON, or headers the transport refuses: the SDK answers (-32700, 406, 415, 400).
  if (!checked) return sdkAnswer(context, body.forSdk, body.parsed);
  if ("invalid" in checked) {
    return jsonRpcRefusal(400, `Invalid Request: ${checked.invalid}`, requestId, { code: ErrorCode.InvalidRequest });
  }
  const { batch, messages, answered } = checked;
  const overLimit = await spend(context, messages, batch);
  if (overLimit) return overLimit;
  const single = batch ? undefined : messages[0];
  const direct = single && directToolCall(request.headers, single);
  if (direct) {
    return new Response(await answerToolCall(direct.id, () => callTool(context, direct.params)), {
      headers: { "Content-Type": "application/json" },
    });
  }
  const ran = messages.length ? await sdkAnswer(context, body.forSdk, batch ? messages : single) : undefined;
  if (batch) return batchAnswer(ran, answered);
  return ran ?? jsonRpcAnswer(answered[0]);
}

/**
 * Every authenticated request spends from the token's bucket, as on REST: a tools/call what its
 * tool spends, in the shared pipeline (refused there, it is a tool error the model reads); anything
 * else one request here, before it runs, so that a refusal is the transport's 429 with Retry-After
 * and the RateLimit fields, not an internal error from inside the SDK's server.
 */
async function spend(context: CallContext, messages: Message[], batch: boolean): Promise<Response | undefined> {
  if (messages.every((message) => message.method === "tools/call" && "id" in message)) return undefined;
  try {
    Object.assign(context.spent, await rateLimitGeneral(context.caller));
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "rate_limited") throw error;
    return jsonRpcRefusal(429, error.message, context.requestId, {
      id: batch ? null : messages[0]?.id,
      data: error.toProblem(context.requestId),
      headers: error.headers,
    });
  }
}

/** Everything but a plain tools/call: the SDK's server and stateless transport, built for this request. */
async function sdkAnswer(context: CallContext, request: Request, parsed: unknown): Promise<Response> {
  const server = buildServer(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, parsed === undefined ? undefined : { parsedBody: parsed });
    return new Response(response.body, { status: response.status, headers: new Headers(response.headers) });
  } finally {
    await server.close();
  }
}

interface ReadBody {
  parsed?: unknown;
  forSdk: Request;
  tooLarge?: true;
}

/**
 * The body, read once and parsed, for the step-up check, the direct tools/call and the SDK (which
 * takes it parsed). A body that is not JSON goes to the SDK as it came, which answers it as before;
 * one over the transport's limit gets the transport's 413.
 */
async function readMessage(request: Request): Promise<ReadBody> {
  if (!request.body) return { forSdk: request };
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return { forSdk: request, tooLarge: true };
  const bytes = await readCapped(request, MAX_BODY_BYTES);
  if (bytes === null) return { forSdk: request, tooLarge: true };
  try {
    return { parsed: JSON.parse(Buffer.from(bytes).toString("utf8")), forSdk: request };
  } catch {
    return { forSdk: new Request(request.url, { method: "POST", headers: request.headers, body: Buffer.from(bytes) }) };
  }
}

/**
 * For an OAuth token, a tools/call of a tool its scopes do not reach is answered 403 with the
 * Bearer challenge naming the scopes it needs (the MCP authorization spec's step-up: the client may
 * ask the member for more), not as a tool error inside a 200. A personal access token cannot be
 * widened by its client, so there the refusal stays a tool error the model can read.
 */
function outOfScopeCall(message: unknown, caller: Caller): Response | undefined {
  if (caller.kind !== "oauth") return undefined;
  const call = message as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null;
  const capability =
    call?.method === "tools/call" && typeof call.params?.name === "string"
      ? capabilityByTool.get(call.params.name)
      : undefined;
  const needs = capability ? acceptedScopes(capability) : [];
  if (!capability || needs.some((scope) => caller.scopes.has(scope))) return undefined;
  const error = insufficientScope(needs, "mcp");
  const body = { jsonrpc: "2.0", error: { code: -32001, message: error.message }, id: call?.id ?? null };
  return new Response(JSON.stringify(body), {
    status: 403,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...error.headers },
  });
}

/**
 * The route's methods (app/api/mcp/route.ts is generated). Stateless Streamable HTTP answers GET (no
 * event stream) and DELETE (no session) 405 itself, with why; POST is all it offers.
 */
export const mcpRoute = everyMethod({ GET: handleMcp, POST: handleMcp, DELETE: handleMcp }, { allow: ["POST"] });
