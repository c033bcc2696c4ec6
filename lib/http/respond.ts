import type { ApiError } from "./problem.ts";

/**
 * A body that carries its own JSON text (a page the database serialized, lib/http/pagination.ts):
 * the function answers the text, or undefined once the body may have changed since.
 */
export const serializedBody = Symbol("serialized body");
type MaybeSerialized = { [serializedBody]?: () => string | undefined } | null | undefined;

/** A value's JSON text: the text it carries when it has one, else JSON.stringify's. */
export const jsonText = (value: unknown): string =>
  (value as MaybeSerialized)?.[serializedBody]?.() ?? JSON.stringify(value);

/**
 * An object (an envelope, such as invoke's {ok, result}) whose JSON text is built from its
 * members' own text where they carry it, so a page inside it is written as the database's text
 * rather than parsed and serialised again. Members are read when it is serialised, as
 * JSON.stringify reads them, and left out as it leaves them out.
 */
export function serializedEnvelope<T extends object>(envelope: T): T {
  const serialized = () => {
    const members: string[] = [];
    for (const [key, value] of Object.entries(envelope)) {
      if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
      members.push(`${JSON.stringify(key)}:${jsonText(value)}`);
    }
    return `{${members.join(",")}}`;
  };
  return Object.defineProperty(envelope, serializedBody, { value: serialized });
}

/** JSON with the request id on every answer; 204 carries no body. */
export function jsonResponse(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}) {
  const common = { "Request-Id": requestId, "Cache-Control": "no-store", ...headers };
  if (status === 204) return new Response(null, { status, headers: common });
  return new Response(jsonText(body), {
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
