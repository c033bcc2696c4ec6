import { z } from "zod";
import { readJsonBody } from "../http/body.ts";
import { preflightResponse } from "../http/cors.ts";
import { methodNotAllowed } from "../http/method-not-allowed.ts";
import { ApiError, asApiError } from "../http/problem.ts";
import { singleValuedQuery } from "../http/query.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { jsonResponse, problemResponse } from "../http/respond.ts";
import { zipResponse } from "../http/zip.ts";
import { execute } from "../pipeline/execute.ts";
import { fromRestNames, withRestNames } from "./rest-names.ts";
import { matchRoute, methodsAt } from "./rest-routes.ts";

/** The REST surface: frames an HTTP request as a capability call and the outcome as HTTP. */
export async function handleRest(request: Request, path: readonly string[]): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  let names = new Map<string, string>();
  try {
    const method = request.method === "HEAD" ? "GET" : request.method;
    const match = matchRoute(method, path);
    if (match.kind === "not_found")
      throw new ApiError("not_found", `No route ${request.method} /api/v1/${path.join("/")}.`);
    if (match.kind === "method_not_allowed") throw methodNotAllowed(request.method, match.allow);
    const { route, params } = match;
    const input =
      method === "GET" || method === "DELETE"
        ? numbersFromQuery(singleValuedQuery(new URL(request.url).searchParams), route.capability.input)
        : await readJsonBody(request);
    const source = route.capability.source;
    if (source.kind === "operation") names = fromRestNames(input, source.operation.queryAliases);
    const outcome = await execute(route.capability, input, { requestId, headers: request.headers, path: params });
    if (source.kind === "operation" && source.operation.restBody?.contentType === "application/zip") {
      const files = (outcome.body as { files: Record<string, unknown> }).files;
      const day = new Date().toISOString().slice(0, 10);
      return zipResponse(files, `${source.operation.name}-${day}.zip`, requestId, outcome.headers);
    }
    const link = nextLink(request, outcome.body);
    return jsonResponse(outcome.status, outcome.body, requestId, { ...outcome.headers, ...link });
  } catch (error) {
    return problemResponse(asApiError(withRestNames(error, names), requestId), requestId);
  }
}

/** OPTIONS: the registry's verbs for the path (never Next's default list), with CORS preflight headers. */
export function handleRestOptions(request: Request, path: readonly string[]): Response {
  const methods = methodsAt(path);
  if (!methods.length) {
    const requestId = requestIdFrom(request.headers);
    return problemResponse(new ApiError("not_found", `No route at /api/v1/${path.join("/")}.`), requestId);
  }
  return preflightResponse(request, methods);
}

/**
 * A query string carries only text: a field the registry declares as a number takes a value of
 * plain decimal digits as that number. Anything else ("0x10", "1e2", " 5", "") stays text, so
 * validation refuses it as it would in a JSON body, where invoke and MCP send real numbers.
 */
function numbersFromQuery(input: Record<string, string>, schema: z.ZodObject): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(input)) {
    let field = schema.shape[key];
    while (field instanceof z.ZodOptional || field instanceof z.ZodDefault) field = field.unwrap() as z.ZodType;
    if (field instanceof z.ZodNumber && /^-?(0|[1-9][0-9]{0,14})$/.test(value)) out[key] = Number(value);
  }
  return out;
}

/** Only while has_more: the event log hands out a cursor on its last page too (to poll from), but no next page. */
function nextLink(request: Request, body: unknown): Record<string, string> {
  const page = body as { has_more?: unknown; next_cursor?: unknown } | null;
  const cursor = page?.next_cursor;
  if (page?.has_more !== true || typeof cursor !== "string") return {};
  const url = new URL(request.url);
  url.searchParams.set("after", cursor);
  return { Link: `<${url.pathname}${url.search}>; rel="next"` };
}
