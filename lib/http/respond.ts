import type { ApiError } from "./problem.ts";

/**
 * A body that carries its own JSON text (a page the database serialized, lib/http/pagination.ts):
 * the function answers the text, or undefined once the body may have changed since.
 */
export const serializedBody = Symbol("serialized body");
type MaybeSerialized = { [serializedBody]?: () => string | undefined } | null | undefined;

const bodyText = (body: unknown) => (body as MaybeSerialized)?.[serializedBody]?.() ?? JSON.stringify(body);

/** JSON with the request id on every answer; 204 carries no body. */
export function jsonResponse(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}) {
  const common = { "Request-Id": requestId, "Cache-Control": "no-store", ...headers };
  if (status === 204) return new Response(null, { status, headers: common });
  return new Response(bodyText(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...common },
  });
}

export function problemResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(error.toProblem(requestId)), {
    status: error.status,
    headers: {
      "Content-Type": "application/problem+json; charset=utf-8",
      "Request-Id": requestId,
      "Cache-Control": "no-store",
      ...headers,
      ...error.headers,
    },
  });
}
