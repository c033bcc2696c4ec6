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
import { errorResult, successResult, type ToolAnswer } from "./mcp-results.ts";
import { toolsFor, toolDefinition, toVendorShape } from "./tools.ts";
import { rateLimitCatalog } from "./tools-http.ts";

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
  const { caller, spent } = context;
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    Object.assign(spent, await rateLimitCatalog(caller));
    return {
      tools: toolsFor(caller.scopes, caller.limits).map(
        (capability) =>
          toVendorShape(toolDefinition(capability, caller.limits), capability, "mcp", caller.limits) as never,
      ),
    };
  });
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
      return jsonRpcError(403, "Forbidden: invalid Origin", requestId);
    }
    // The SDK would read a body declared in another charset as UTF-8; JSON is UTF-8 (RFC 8259), as on REST.
    const charset = foreignCharset(request.headers.get("content-type") ?? "");
    if (charset !== undefined) {
      const message = `Unsupported Media Type: JSON is UTF-8 (RFC 8259); send charset=utf-8 or no charset, not charset=${charset || "(empty)"}`;
      return jsonRpcError(415, message, requestId);
    }
    const coding = foreignCoding(request.headers);
    if (coding !== undefined) {
      const message = `Unsupported Media Type: Content-Encoding ${coding} is not read; send the body unencoded (identity)`;
      return jsonRpcError(415, message, requestId, ACCEPTED_CODINGS);
    }
    const caller = await authenticate(request.headers, "mcp");
    const body = await readMessage(request);
    const refused = outOfScopeCall(body.parsed, caller);
    if (refused) return refused;
    const context: CallContext = { caller, request, requestId, spent: {} };
    const direct = directToolCall(request.headers, body.parsed);
    const response = body.tooLarge
      ? jsonRpcError(413, requestBodyTooLargeMessage(MAX_BODY_BYTES), requestId)
      : direct
        ? new Response(await answerToolCall(direct.id, () => callTool(context, direct.params)), {
            headers: { "Content-Type": "application/json" },
          })
        : await sdkAnswer(context, body.forSdk, body.parsed);
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

/** A transport-level refusal, in the shape the SDK's transport gives its own. */
function jsonRpcError(
  status: number,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json", "Request-Id": requestId, ...headers },
  });
}

/**
 * The body, read once and parsed, for the step-up check, the direct tools/call and the SDK (which
 * takes it parsed). A body that is not JSON goes to the SDK as it came, which answers it as before;
 * one over the transport's limit gets the transport's 413.
 */
async function readMessage(request: Request): Promise<{ parsed?: unknown; forSdk: Request; tooLarge?: true }> {
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
