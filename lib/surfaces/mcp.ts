import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { acceptedScopes, capabilityByTool } from "../../registry/capabilities.ts";
import type { Caller } from "../auth/caller.ts";
import { authenticate, insufficientScope } from "../http/authenticate.ts";
import { foreignCharset, MAX_BODY_BYTES, readCapped } from "../http/body.ts";
import { originRelation } from "../http/origin.ts";
import { ApiError, asApiError } from "../http/problem.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { problemResponse } from "../http/respond.ts";
import { MEMBER_DATA_IN_PROSE } from "../../registry/resource-prose.ts";
import { invokeTool } from "./invoke.ts";
import { errorResult, type McpToolResult, successResult } from "./mcp-results.ts";
import { toolsFor, toolDefinition, toVendorShape } from "./tools.ts";
import { rateLimitCatalog } from "./tools-http.ts";

const SERVER_INFO = { name: "personal-data-service", version: "1.0.0" };
const INSTRUCTIONS =
  `Tools over the member's personal data (${MEMBER_DATA_IN_PROSE}). ` +
  "The same tools, scopes and rules as the REST API at /api/v1. Tools whose result is a directive (play_song, listen, open_url) run in the member's browser. " +
  "The member sees every write made with this token under Settings → Activity; when the member asks to take one back, activity_undo undoes this token's last update or delete.";

/**
 * One MCP server per HTTP request (stateless Streamable HTTP: no session, nothing kept between
 * requests, so any instance can answer). The Bearer token is checked before MCP sees the request;
 * tools/list shows what its scopes allow and tools/call runs the shared pipeline.
 */
function buildServer(caller: Caller, request: Request, requestId: string, spent: Record<string, string>) {
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
  server.setRequestHandler(CallToolRequestSchema, async (call): Promise<McpToolResult> => {
    const capability = capabilityByTool.get(call.params.name);
    if (!capability) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    const outcome = await invokeTool(capability.tool, call.params.arguments ?? {}, {
      requestId,
      headers: request.headers,
      caller,
      resource: "mcp",
      surface: "mcp",
    });
    Object.assign(spent, outcome.headers);
    const body = outcome.body;
    if (!body.ok) return errorResult(body.error);
    return successResult(capability, "directive" in body ? body.directive : body.result, caller.limits);
  });
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
      const error = { jsonrpc: "2.0", error: { code: -32000, message: "Forbidden: invalid Origin" }, id: null };
      return new Response(JSON.stringify(error), {
        status: 403,
        headers: { "Content-Type": "application/json", "Request-Id": requestId },
      });
    }
    // The SDK would read a body declared in another charset as UTF-8; JSON is UTF-8 (RFC 8259), as on REST.
    const charset = foreignCharset(request.headers.get("content-type") ?? "");
    if (charset !== undefined) {
      const message = `Unsupported Media Type: JSON is UTF-8 (RFC 8259); send charset=utf-8 or no charset, not charset=${charset || "(empty)"}`;
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
        status: 415,
        headers: { "Content-Type": "application/json", "Request-Id": requestId },
      });
    }
    const caller = await authenticate(request.headers, "mcp");
    // An OAuth call's body is read here once, for the step-up check, and handed to the transport parsed.
    const { refused, parsed } = await outOfScopeCall(request, caller);
    if (refused) return refused;
    const spent: Record<string, string> = {};
    const server = buildServer(caller, request, requestId, spent);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(
        request,
        parsed === undefined ? undefined : { parsedBody: parsed },
      );
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries({ ...spent, "Request-Id": requestId, "Cache-Control": "no-store" })) {
        headers.set(name, value);
      }
      return new Response(response.body, { status: response.status, headers });
    } finally {
      await server.close();
    }
  } catch (error) {
    return problemResponse(asApiError(error, requestId), requestId);
  }
}

/**
 * For an OAuth token, a tools/call of a tool its scopes do not reach is answered 403 with the
 * Bearer challenge naming the scopes it needs (the MCP authorization spec's step-up: the client may
 * ask the member for more), not as a tool error inside a 200. A personal access token cannot be
 * widened by its client, so there the refusal stays a tool error the model can read. Only a body
 * small enough for the transport is read, and what it parsed to goes to the transport (`parsed`),
 * so the body is not read and parsed twice.
 */
async function outOfScopeCall(request: Request, caller: Caller): Promise<{ refused?: Response; parsed?: unknown }> {
  if (caller.kind !== "oauth") return {};
  // A body too large for the transport, or not JSON, is left to it (it answers those itself from
  // the request's own body, which this read of a copy leaves unread).
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES || !request.body) return {};
  const bytes = await readCapped(request.clone(), MAX_BODY_BYTES);
  if (bytes === null) return {};
  let message: unknown;
  try {
    message = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return {};
  }
  const call = message as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null;
  const capability =
    call?.method === "tools/call" && typeof call.params?.name === "string"
      ? capabilityByTool.get(call.params.name)
      : undefined;
  const needs = capability ? acceptedScopes(capability) : [];
  if (!capability || needs.some((scope) => caller.scopes.has(scope))) return { parsed: message };
  const error = insufficientScope(needs, "mcp");
  const body = { jsonrpc: "2.0", error: { code: -32001, message: error.message }, id: call?.id ?? null };
  return {
    refused: new Response(JSON.stringify(body), {
      status: 403,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...error.headers },
    }),
  };
}

/** The route's methods: stateless Streamable HTTP answers each itself (app/api/mcp/route.ts is generated). */
export const mcpRoute = { GET: handleMcp, POST: handleMcp, DELETE: handleMcp };
