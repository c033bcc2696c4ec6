import { MAX_BATCH_SIZE } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import {
  CallToolRequestSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCErrorResponse,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  NotificationSchema,
  PingRequestSchema,
  RequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { issuesToErrors } from "../http/validation.ts";

/** One JSON-RPC message that passed the envelope check: an object with jsonrpc "2.0". */
export type Message = Record<string, unknown> & { method?: unknown; id?: unknown; params?: unknown };

export type CheckedBody =
  /** Not JSON-RPC MCP takes: answered 400 -32600 Invalid Request, nothing runs. */
  | { invalid: string }
  /**
   * messages: those to run; answered: the errors of requests whose params their method does not
   * take (-32602), which run no further; batch: the body was an array, so the answer is one.
   */
  | { batch: boolean; messages: Message[]; answered: JSONRPCErrorResponse[] };

/** MCP 2025-06-18 took JSON-RPC batches out; the versions before it have them. */
export const FIRST_WITHOUT_BATCHES = "2025-06-18";

/**
 * The SDK's transport refuses, before it reads a message, a request whose Accept or Content-Type it
 * does not take (406, 415); those refusals come first, so such a request goes to it as it is.
 */
export function transportTakes(headers: Headers): boolean {
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
  return isJsonContentType(headers.get("content-type"));
}

/**
 * The parsed body checked as JSON-RPC 2.0 before the SDK sees it, which would call a well-formed
 * JSON body that is no request a parse error (-32700), params its server does not take an internal
 * error (-32603), and answer a batch of one as a bare object. undefined: the SDK's transport refuses
 * the request by its headers, so it should answer.
 */
export function checkBody(headers: Headers, body: unknown): CheckedBody | undefined {
  if (!transportTakes(headers)) return undefined;
  const batch = Array.isArray(body);
  const list: unknown[] = batch ? body : [body];
  if (batch && list.length === 0) return { invalid: "an empty batch holds no message" };
  if (list.length > MAX_BATCH_SIZE) return { invalid: `a batch holds at most ${MAX_BATCH_SIZE} messages` };
  for (const [i, message] of list.entries()) {
    const problem = envelopeProblem(message);
    if (problem) return { invalid: batch ? `message ${i + 1} of the batch: ${problem}` : problem };
  }
  const messages = list as Message[];
  const initialize = messages.find((message) => message.method === "initialize");
  const header = headers.get("mcp-protocol-version");
  // The transport's own refusal of a version it does not know (an initialize proposes its own instead).
  if (header !== null && !initialize && !SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return undefined;
  if (batch && !hasBatches(initialize ? proposedVersion(initialize) : header)) {
    return {
      invalid: `MCP ${FIRST_WITHOUT_BATCHES} and later have no JSON-RPC batches: send one message per request`,
    };
  }
  const answered: JSONRPCErrorResponse[] = [];
  const valid = messages.filter((message) => {
    const problem = paramsProblem(message);
    // A notification is never answered (JSON-RPC 2.0 §4.1), not even with its error.
    if (problem && "id" in message) {
      answered.push({
        jsonrpc: "2.0",
        id: message.id as string | number,
        error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` },
      });
    }
    return !problem;
  });
  return { batch, messages: valid, answered };
}

/**
 * The methods this server answers, with the SDK's schema its server parses each with: there a
 * failure is an internal error (-32603) carrying the validator's dump, so it is checked here first.
 */
const SERVED: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** Why a request's params are not what its method takes (a response has none to check). */
function paramsProblem(message: Message): string | undefined {
  if (typeof message.method !== "string") return undefined;
  if (Array.isArray(message.params)) return "/params: MCP takes params by name, as an object";
  const schema = "id" in message ? (SERVED[message.method] ?? RequestSchema) : NotificationSchema;
  const parsed = schema.safeParse({ method: message.method, params: message.params });
  if (!parsed.success) return readable(parsed.error.issues);
  // tools/list answers every tool on one page and gives no nextCursor, so no cursor is one it gave.
  if (message.method === "tools/list" && (message.params as { cursor?: unknown } | undefined)?.cursor !== undefined) {
    return "/params/cursor: not a cursor this server gave; tools/list answers every tool on one page, with no nextCursor";
  }
  return undefined;
}

/** Zod's issues as one line: `/params/arguments: expected object, received array`. */
function readable(issues: Parameters<typeof issuesToErrors>[0]): string {
  return issuesToErrors(issues)
    .map(
      ({ pointer, message }) =>
        `${pointer || "/"}: ${message.replace(/^Invalid input: /, "").replace(/^expected record\b/, "expected object")}`,
    )
    .join("; ");
}

/** Why a value is not a JSON-RPC 2.0 message MCP takes; params are checked by their method. */
function envelopeProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return "a JSON-RPC message is a JSON object";
  }
  const { jsonrpc, id, method, params, ...rest } = message as Message;
  if (jsonrpc !== "2.0") return '"jsonrpc" must be "2.0"';
  if ("id" in message && !(typeof id === "string" || Number.isInteger(id))) {
    return '"id" must be a string or an integer (MCP allows no null id)';
  }
  if ("method" in message && typeof method !== "string") return '"method" must be a string';
  if (params !== undefined && (typeof params !== "object" || params === null)) return '"params" must be an object';
  if (!("method" in message) && !("result" in rest || "error" in rest)) {
    return 'a message has a "method" (a request or a notification), or a "result" or an "error" (a response)';
  }
  const members = "method" in message ? ["method", "params"] : ["result", "error"];
  const unknown = Object.keys(rest).filter((key) => !members.includes(key));
  if (unknown.length) return `unknown member ${unknown.map((key) => `"${key}"`).join(", ")}`;
  // The SDK's own schema has the last word; params are left to their method's schema.
  const parsed = JSONRPCMessageSchema.safeParse(params === undefined ? message : { ...message, params: {} });
  return parsed.success ? undefined : "not a JSON-RPC request, notification or response as MCP defines them";
}

const proposedVersion = (initialize: Message): string | null => {
  const version = (initialize.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof version === "string" ? version : null;
};

/** Without a version, the transport spec has the server assume 2025-03-26, which had batches. */
const hasBatches = (version: string | null) => (version ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION) < FIRST_WITHOUT_BATCHES;

/** The code the SDK's transport gives its own refusals: the first of JSON-RPC's server errors. */
export const TRANSPORT_REFUSAL = -32000;

/**
 * A refusal of the whole request, as the SDK's transport words its own: a JSON-RPC error, with no
 * id unless the request was one message with one; data and headers for what the code cannot say.
 */
export function jsonRpcRefusal(
  status: number,
  message: string,
  requestId: string,
  extra: { code?: number; id?: unknown; data?: unknown; headers?: Record<string, string> } = {},
): Response {
  const { code = TRANSPORT_REFUSAL, id = null, data, headers } = extra;
  const error = { code, message, ...(data !== undefined && { data }) };
  return new Response(JSON.stringify({ jsonrpc: "2.0", error, id }), {
    status,
    headers: { ...headers, "Content-Type": "application/json", "Request-Id": requestId },
  });
}

/** One message's answer given here, or 202 for a notification that has none. */
export function jsonRpcAnswer(message: JSONRPCErrorResponse | undefined): Response {
  if (!message) return new Response(null, { status: 202 });
  return new Response(JSON.stringify(message), { headers: { "Content-Type": "application/json" } });
}

/**
 * The answer to a batch, an array also of one (JSON-RPC 2.0 §6; the SDK answers a batch of one
 * with the bare answer): the SDK's answers, if it ran any, and the errors answered here. A
 * transport refusal (neither 200 nor 202) stays as it is; nothing to answer is 202.
 */
export async function batchAnswer(response: Response | undefined, answered: JSONRPCErrorResponse[]): Promise<Response> {
  if (response && response.status !== 200 && response.status !== 202) return response;
  const ran: unknown = response?.status === 200 ? await response.json() : [];
  const answers = [...(Array.isArray(ran) ? ran : [ran]), ...answered];
  if (!answers.length) return jsonRpcAnswer(undefined);
  return new Response(JSON.stringify(answers), { headers: { "Content-Type": "application/json" } });
}
