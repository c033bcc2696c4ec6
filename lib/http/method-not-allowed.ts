import { ApiError } from "./problem.ts";

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
