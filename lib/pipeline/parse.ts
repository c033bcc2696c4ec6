import type { Capability } from "../../registry/capabilities.ts";
import { ApiError } from "../http/problem.ts";
import { parseInput } from "../http/validation.ts";

/** Strict validation against the capability's input, naming read-only fields as such. */
export function parseCapabilityInput(capability: Capability, input: Record<string, unknown>): Record<string, unknown> {
  const accepted = capability.input.shape;
  const readOnly = Object.keys(input).filter((key) => capability.readOnlyFields.includes(key) && !(key in accepted));
  if (readOnly.length) {
    throw new ApiError("invalid_request", `Read-only field${readOnly.length > 1 ? "s" : ""}: ${readOnly.join(", ")}.`, {
      errors: readOnly.map((key) => ({
        pointer: `/${key}`,
        code: "read_only",
        message: `"${key}" is set by the service and cannot be written.`,
      })),
    });
  }
  return parseInput(capability.input, input) as Record<string, unknown>;
}
