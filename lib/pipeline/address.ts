import type { Capability } from "../../registry/capabilities.ts";
import { ApiError } from "../http/problem.ts";

/**
 * Addressing, the same for every surface: the input must be an object; a value the REST path
 * supplies may not come in the body too; and a path parameter (an id) that cannot exist names no
 * row, which is the 404 of a row that is not yours — on REST, invoke and MCP alike.
 */
export function addressInput(
  capability: Capability,
  rawInput: unknown,
  path: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  if (typeof rawInput !== "object" || rawInput === null || Array.isArray(rawInput)) {
    throw new ApiError("invalid_request", "The input must be a JSON object.", {
      errors: [{ pointer: "", code: "invalid_type", message: "Expected a JSON object." }],
    });
  }
  const clash = Object.keys(path).filter((key) => key in rawInput);
  if (clash.length) {
    throw new ApiError("invalid_request", `Read-only field: ${clash.join(", ")} (it comes from the path).`, {
      errors: clash.map((key) => ({
        pointer: `/${key}`,
        code: "read_only",
        message: `"${key}" is taken from the URL.`,
      })),
    });
  }
  const input: Record<string, unknown> = { ...rawInput, ...path };
  for (const name of capability.http?.pathParams ?? []) {
    const value = input[name];
    if (typeof value === "string" && !capability.input.shape[name]?.safeParse(value).success)
      throw noSuchRow(capability);
  }
  return input;
}

function noSuchRow(capability: Capability): ApiError {
  const source = capability.source;
  const what = source.kind === "resource" ? source.resource.singular : "record";
  return new ApiError("not_found", `No ${what} with this id is visible to this token.`);
}
