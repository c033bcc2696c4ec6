import { capabilityByTool } from "../../registry/capabilities.ts";
import type { Caller } from "../auth/caller.ts";
import { authenticate } from "../http/authenticate.ts";
import { readJsonBody } from "../http/body.ts";
import { ApiError, asApiError, type Problem } from "../http/problem.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { jsonResponse, serializedEnvelope } from "../http/respond.ts";
import { ConfirmationPending } from "../pipeline/credential-limits.ts";
import { type CallContext, execute } from "../pipeline/execute.ts";
import { capabilitySchemas } from "./tools-json-schema.ts";
import { fromOpenAiArguments } from "./tools-openai.ts";

export type InvokeBody =
  | { ok: true; result: unknown }
  | { ok: true; directive: unknown }
  | { ok: false; error: Problem };

export interface InvokeOutcome {
  status: number;
  body: InvokeBody;
  headers: Record<string, string>;
}

/**
 * Runs one tool through the very pipeline REST uses and frames the answer as {ok, result|directive|error},
 * with the HTTP status REST would give — except that a 204 (delete) becomes 200 with result null,
 * because a 204 cannot carry the envelope. A delete held for the member's confirmation (a "confirm
 * destructive" credential) answers 202 with the confirm_delete directive: accepted, nothing done yet.
 * Callers: POST /api/agent/invoke, MCP, the settings tool console (with a session caller) and tests.
 */
export async function invokeTool(tool: string, input: unknown, call: CallContext): Promise<InvokeOutcome> {
  try {
    const caller: Caller = call.caller ?? (await authenticate(call.headers, call.resource));
    const capability = capabilityByTool.get(tool);
    if (!capability) throw new ApiError("not_found", `No tool named "${tool}". GET /api/agent/tools lists them.`);
    const outcome = await execute(capability, input, { ...call, caller, surface: call.surface ?? "invoke" });
    const body: InvokeBody =
      capability.source.kind === "directive"
        ? { ok: true, directive: outcome.body }
        : // A page keeps the database's JSON text inside the envelope (REST answers that text as it is).
          serializedEnvelope({ ok: true, result: outcome.status === 204 ? null : outcome.body });
    return { status: outcome.status === 204 ? 200 : outcome.status, body, headers: outcome.headers };
  } catch (error) {
    if (error instanceof ConfirmationPending) {
      return { status: 202, body: { ok: true, directive: error.directive }, headers: error.headers };
    }
    const problem = asApiError(error, call.requestId);
    return {
      status: problem.status,
      body: { ok: false, error: problem.toProblem(call.requestId) },
      headers: problem.headers,
    };
  }
}

/** POST /api/agent/invoke {tool, input, format?}. */
export async function handleInvoke(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  let outcome: InvokeOutcome;
  try {
    const envelope = parseEnvelope(await readJsonBody(request, { payloadAt: "/input" }));
    const capability = capabilityByTool.get(envelope.tool);
    // Arguments a model produced against the OpenAI strict schema use null for "left out".
    const input =
      envelope.format === "openai" && capability
        ? fromOpenAiArguments(capabilitySchemas(capability).input, envelope.input)
        : envelope.input;
    outcome = await invokeTool(envelope.tool, input, { requestId, headers: request.headers, resource: "agent" });
  } catch (error) {
    const problem = asApiError(error, requestId);
    outcome = {
      status: problem.status,
      body: { ok: false, error: problem.toProblem(requestId) },
      headers: problem.headers,
    };
  }
  return jsonResponse(outcome.status, outcome.body, requestId, outcome.headers);
}

interface Envelope {
  tool: string;
  input: unknown;
  format?: "openai";
}

const ENVELOPE_KEYS = new Set(["tool", "input", "format"]);

function parseEnvelope(body: unknown): Envelope {
  const fail = (pointer: string, message: string) =>
    new ApiError("invalid_request", `${pointer || "The body"}: ${message}`, {
      errors: [{ pointer, code: "invalid_envelope", message }],
    });
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw fail("", "Expected a JSON object.");
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !ENVELOPE_KEYS.has(key));
  if (unknown) throw fail(`/${unknown}`, `Unknown field "${unknown}"; send {tool, input}.`);
  if (typeof record.tool !== "string" || record.tool === "") throw fail("/tool", "Expected the tool name (a string).");
  if (record.format !== undefined && record.format !== "openai") throw fail("/format", 'Expected "openai" or nothing.');
  return { tool: record.tool, input: record.input ?? {}, format: record.format };
}
