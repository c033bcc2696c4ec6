import {
  type CallToolRequest,
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { transportTakes } from "./mcp-messages.ts";
import type { ToolAnswer } from "./mcp-results.ts";

type CallParams = CallToolRequest["params"];

/**
 * A tools/call the SDK's transport and server would accept as it is: POST headers the transport
 * takes (Accept, Content-Type, a supported MCP-Protocol-Version), one JSON-RPC request, not a batch,
 * whose params pass the SDK's own CallToolRequestSchema and ask for no task. undefined for
 * anything else, which the SDK answers.
 */
export function directToolCall(
  headers: Headers,
  message: unknown,
): { id: string | number; params: CallParams } | undefined {
  if (!transportTakes(headers)) return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { jsonrpc, id } = message as { jsonrpc?: unknown; id?: unknown };
  if (jsonrpc !== "2.0" || !(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) {
    return undefined;
  }
  const call = CallToolRequestSchema.safeParse(message);
  if (!call.success || call.data.params.task) return undefined;
  return { id, params: call.data.params };
}

/**
 * The JSON-RPC answer the SDK's Server gives a tools/call, as its JSON text: the handler's result
 * checked against CallToolResultSchema (its wrapper's check), or the error a thrown error becomes in
 * its Protocol. The structured content goes in as the JSON the text block already holds.
 */
export async function answerToolCall(id: string | number, run: () => Promise<ToolAnswer>): Promise<string> {
  try {
    const answer = await run();
    const checked = CallToolResultSchema.safeParse(checkable(answer.result));
    if (!checked.success) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
    }
    return answerJson(id, answer);
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    return JSON.stringify({
      jsonrpc: "2.0",
      id,
      error: {
        code: Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
        message: message ?? "Internal error",
        ...(data !== undefined && { data }),
      },
    });
  }
}

/**
 * The result as CallToolResultSchema reads it. The schema takes any value under structuredContent's
 * keys (z.unknown()), so the keys stand for the object: reading its values would parse a page that
 * is still the database's JSON text (lib/http/pagination.ts) only to write it out again.
 */
function checkable(result: ToolAnswer["result"]): unknown {
  const structured = result.structuredContent;
  if (typeof structured !== "object" || structured === null || Array.isArray(structured)) return result;
  return { ...result, structuredContent: Object.fromEntries(Object.keys(structured).map((key) => [key, null])) };
}

function answerJson(id: string | number, { result, structuredJson }: ToolAnswer): string {
  if (structuredJson === undefined) return JSON.stringify({ result, jsonrpc: "2.0", id });
  const { structuredContent: _, ...rest } = result;
  // rest holds content at least, so its JSON is an object with a member to follow.
  const head = JSON.stringify(rest).slice(0, -1);
  return `{"result":${head},"structuredContent":${structuredJson}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}
