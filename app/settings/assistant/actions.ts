"use server";

import { headers } from "next/headers";
import { ApiError } from "@/lib/http/problem";
import { requestIdFrom } from "@/lib/http/request-id";
import { invokeTool } from "@/lib/surfaces/invoke";
import type { ConsoleAnswer } from "@/lib/web/action-states";
import { isSameOrigin } from "@/lib/web/csrf";
import { memberCaller, requireMember } from "@/lib/web/session";

/** The tool console's invoke: the same invokeTool as POST /api/agent/invoke, as the signed-in member. */
export async function invokeToolAction(tool: string, input: unknown): Promise<ConsoleAnswer> {
  const requestHeaders = await headers();
  const requestId = requestIdFrom(requestHeaders);
  if (!isSameOrigin(requestHeaders)) {
    const problem = new ApiError("unauthorized", "Refused: the request came from another site.");
    return { status: problem.status, body: { ok: false, error: problem.toProblem(requestId) } };
  }
  const member = await requireMember();
  const outcome = await invokeTool(String(tool), input, {
    requestId,
    headers: requestHeaders,
    caller: memberCaller(member),
    surface: "page",
  });
  return { status: outcome.status, body: outcome.body };
}
