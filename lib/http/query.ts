import { ApiError } from "./problem.ts";

/**
 * A query string as one value per name. A name given twice is refused (422 duplicate_parameter)
 * rather than one of its values picked silently: the caller meant something the server cannot tell.
 */
export function singleValuedQuery(query: URLSearchParams): Record<string, string> {
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
