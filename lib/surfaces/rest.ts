import { isUuid } from "../domain/pagination.ts";
import { readJsonBody } from "../http/body.ts";
import { execute } from "../http/pipeline.ts";
import { ApiError, asApiError } from "../http/problem.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { jsonResponse, problemResponse } from "../http/respond.ts";
import { matchRoute } from "./rest-routes.ts";

/** The REST surface: frames an HTTP request as a capability call and the outcome as HTTP. */
export async function handleRest(request: Request, path: readonly string[]): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    const method = request.method === "HEAD" ? "GET" : request.method;
    const match = matchRoute(method, path);
    if (match.kind === "not_found") throw new ApiError("not_found", `No route ${request.method} /api/v1/${path.join("/")}.`);
    if (match.kind === "method_not_allowed") {
      const allow = [...new Set(match.allow)].join(", ");
      throw new ApiError("method_not_allowed", `${request.method} is not offered here. Allowed: ${allow}.`, {
        headers: { Allow: allow },
      });
    }
    const { route, params } = match;
    // An id that cannot exist names no row: the same 404 as a row that is not yours.
    if (params.id !== undefined && !isUuid(params.id)) {
      const source = route.capability.source;
      const what = source.kind === "resource" ? source.resource.singular : "record";
      throw new ApiError("not_found", `No ${what} with this id is visible to this token.`);
    }
    const input = method === "GET" || method === "DELETE" ? queryInput(request) : await bodyInput(request, params);
    const source = route.capability.source;
    if (source.kind === "operation") renameAliases(input, source.operation.queryAliases);
    const outcome = await execute(route.capability, { ...input, ...params }, { requestId, headers: request.headers });
    const link = nextLink(request, outcome.body);
    return jsonResponse(outcome.status, outcome.body, requestId, { ...outcome.headers, ...link });
  } catch (error) {
    return problemResponse(asApiError(error, requestId), requestId);
  }
}

/** A REST name declared for an input field (GET /search?q=) becomes that field; sending both is refused. */
function renameAliases(input: Record<string, unknown>, aliases: Readonly<Record<string, string>> | undefined): void {
  for (const [alias, field] of Object.entries(aliases ?? {})) {
    if (!(alias in input)) continue;
    if (field in input) {
      throw new ApiError("invalid_request", `Send either "${alias}" or "${field}", not both.`, {
        errors: [{ pointer: `/${alias}`, code: "duplicate_parameter", message: `"${alias}" is another name for "${field}".` }],
      });
    }
    input[field] = input[alias];
    delete input[alias];
  }
}

function queryInput(request: Request): Record<string, string> {
  const query = new URL(request.url).searchParams;
  const input: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    if (values.length > 1) {
      throw new ApiError("invalid_request", `Query parameter "${key}" appears more than once.`, {
        errors: [{ pointer: `/${key}`, code: "duplicate_parameter", message: "Send it once." }],
      });
    }
    input[key] = values[0] ?? "";
  }
  return input;
}

async function bodyInput(request: Request, params: Record<string, string>): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("invalid_request", "The body must be a JSON object.", {
      errors: [{ pointer: "", code: "invalid_type", message: "Expected a JSON object." }],
    });
  }
  const clash = Object.keys(params).filter((key) => key in body);
  if (clash.length) {
    throw new ApiError("invalid_request", `Read-only field: ${clash.join(", ")} (it comes from the path).`, {
      errors: clash.map((key) => ({ pointer: `/${key}`, code: "read_only", message: `"${key}" is taken from the URL.` })),
    });
  }
  return body as Record<string, unknown>;
}

function nextLink(request: Request, body: unknown): Record<string, string> {
  const cursor = (body as { next_cursor?: unknown } | null)?.next_cursor;
  if (typeof cursor !== "string") return {};
  const url = new URL(request.url);
  url.searchParams.set("after", cursor);
  return { Link: `<${url.pathname}${url.search}>; rel="next"` };
}
