import { preflightResponse, withCors } from "./cors.ts";
import { ApiError } from "./problem.ts";
import { requestIdFrom } from "./request-id.ts";
import { problemResponse } from "./respond.ts";

/**
 * The one 405 of the API: a problem naming the method, with Allow listing the target's methods
 * (RFC 9110 §15.5.6 makes Allow a MUST on a 405).
 */
export function methodNotAllowed(method: string, allow: readonly string[]): ApiError {
  const list = [...new Set(allow)].join(", ");
  return new ApiError("method_not_allowed", `${method} is not offered here. Allowed: ${list}.`, {
    headers: { Allow: list },
  });
}

/**
 * The methods Next routes to a route file (HTTP_METHODS in next/dist/server/web/http.js). It answers
 * one the file does not export with a bare 405 (no Allow, no body), and any other method a bare 400.
 */
export const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

type Handler<Args extends unknown[]> = (request: Request, ...rest: Args) => Promise<Response>;

/** A route's 405 for a method outside ROUTE_METHODS (PROPFIND…): server.ts answers those itself. */
export const OTHER_METHODS = Symbol("other methods");

export type EveryMethod<Args extends unknown[] = []> = Record<RouteMethod, Handler<Args>> & {
  [OTHER_METHODS]: Handler<Args>;
};

/**
 * A route file's handlers for every method Next routes: the ones offered, HEAD as GET (what Next
 * would do), OPTIONS answering Allow, and methodNotAllowed for the rest. `allow` defaults to the
 * offered methods; `cors` puts the API's CORS headers on every answer, and makes OPTIONS a preflight.
 */
export function everyMethod<Args extends unknown[] = []>(
  offered: Partial<Record<RouteMethod, Handler<Args>>>,
  { allow = offeredMethods(offered), cors = false }: { allow?: readonly string[]; cors?: boolean } = {},
): EveryMethod<Args> {
  const wrap = (handler: Handler<Args>): Handler<Args> => (cors ? withCors(handler) : handler);
  const refuse = wrap(async (request: Request, ..._context: Args) => {
    const requestId = requestIdFrom(request.headers);
    return problemResponse(methodNotAllowed(request.method, allow), requestId);
  });
  const options = async (request: Request, ..._context: Args) =>
    cors
      ? preflightResponse(request, allow)
      : new Response(null, { status: 204, headers: { Allow: allow.join(", ") } });
  const handlers = Object.fromEntries(
    Object.entries(offered).map(([method, handler]) => [method, method === "OPTIONS" ? handler : wrap(handler)]),
  ) as Partial<Record<RouteMethod, Handler<Args>>>;
  const route = { [OTHER_METHODS]: refuse } as EveryMethod<Args>;
  for (const method of ROUTE_METHODS) {
    route[method] =
      handlers[method] ?? (method === "HEAD" ? handlers.GET : method === "OPTIONS" ? options : undefined) ?? refuse;
  }
  return route;
}

function offeredMethods(offered: Partial<Record<RouteMethod, unknown>>): string[] {
  return Object.keys(offered).filter((method) => method !== "HEAD" && method !== "OPTIONS");
}
