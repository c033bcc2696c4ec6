import { capabilityByTool } from "../../registry/capabilities.ts";
import type { Caller } from "../auth/caller.ts";

import { ApiError, asApiError, type Problem } from "../http/problem.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { execute } from "../pipeline/execute.ts";

export type CallResult = { ok: true; status: number; body: unknown } | { ok: false; problem: Problem };

/**
 * Calls a capability as the signed-in member through the same pipeline as a token would, so the
 * settings pages obey exactly the rules of the API (validation, RLS, the store's refusals).
 */
export async function callAsSession(
  caller: Caller,
  tool: string,
  input: unknown,
  requestHeaders: Headers,
): Promise<CallResult> {
  const requestId = requestIdFrom(requestHeaders);
  try {
    const capability = capabilityByTool.get(tool);
    if (!capability) throw new ApiError("not_found", `No tool named ${tool}.`);
    const outcome = await execute(capability, input, {
      requestId,
      headers: requestHeaders,
      caller,
      surface: "page",
    });
    return { ok: true, status: outcome.status, body: outcome.body };
  } catch (error) {
    return { ok: false, problem: asApiError(error, requestId).toProblem(requestId) };
  }
}

/** A problem as form feedback: the detail, and each field error under its field's name. */
export function problemToForm(problem: Problem): { error: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const item of problem.errors ?? []) fields[item.pointer.replace(/^\//, "")] = item.message;
  const reason = problem.reason ? ` (${problem.reason.message})` : "";
  return { error: problem.reason ? `${problem.title}${reason}` : problem.detail, fields };
}
