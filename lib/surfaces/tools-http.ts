import { capabilities } from "../../registry/capabilities.ts";
import type { Caller } from "../auth/caller.ts";
import { authenticate } from "../http/authenticate.ts";
import { ApiError, asApiError } from "../http/problem.ts";
import { singleValuedQuery } from "../http/query.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { jsonResponse, problemResponse } from "../http/respond.ts";
import { isToolFormat, TOOL_FORMATS, type ToolFormat, toolCatalog } from "./tools.ts";

// Requests that run no capability (a catalog read, an MCP request other than tools/call) spend from
// the token's general bucket, which any capability without a bucket of its own selects.
const generalBucket = capabilities.find((capability) => !capability.rateLimit);

/** Rate-limits such a request like any call; answers the headers to send, throws 429 when empty. */
export async function rateLimitGeneral(caller: Caller): Promise<Record<string, string>> {
  return generalBucket ? rateLimit(caller, generalBucket) : {};
}

/** GET /api/agent/tools[?format=…]: the catalog the presented token may call. */
export async function handleToolCatalog(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  let headers: Record<string, string> = {};
  try {
    const caller = await authenticate(request.headers, "agent");
    headers = await rateLimitGeneral(caller);
    const format = formatFrom(new URL(request.url).searchParams);
    return jsonResponse(200, { format, tools: toolCatalog(caller.scopes, format, caller.limits) }, requestId, headers);
  } catch (error) {
    return problemResponse(asApiError(error, requestId), requestId, headers);
  }
}

function formatFrom(query: URLSearchParams): ToolFormat {
  const input = singleValuedQuery(query);
  const unknown = Object.keys(input).filter((key) => key !== "format");
  if (unknown.length) {
    throw new ApiError("invalid_request", `Unknown query parameter: ${unknown.join(", ")}.`, {
      errors: unknown.map((key) => ({ pointer: `/${key}`, code: "unknown_field", message: `Unknown field "${key}".` })),
    });
  }
  const format = input.format ?? "pds";
  if (!isToolFormat(format)) {
    throw new ApiError("invalid_request", `format must be one of ${TOOL_FORMATS.join(", ")}.`, {
      errors: [{ pointer: "/format", code: "invalid_value", message: `Expected one of ${TOOL_FORMATS.join(", ")}.` }],
    });
  }
  return format;
}
