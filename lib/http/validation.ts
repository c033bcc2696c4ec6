import type { z } from "zod";
import { ApiError, type FieldError } from "./problem.ts";

/** Turns zod issues into the problem body's errors, each with a JSON Pointer into the input. */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    const base = pointer(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        pointer: `${base}/${escapeKey(key)}`,
        code: "unknown_field",
        message: `Unknown field "${key}".`,
      }));
    }
    return [{ pointer: base, code: issue.code, message: issue.message }];
  });
}

export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const errors = issuesToErrors(result.error.issues);
    throw new ApiError("invalid_request", summarize(errors), { errors });
  }
  return result.data;
}

function summarize(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return "The request is not valid.";
  const where = first.pointer || "the request";
  return errors.length === 1
    ? `${where}: ${first.message}`
    : `${where}: ${first.message} (and ${errors.length - 1} more)`;
}

const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
/** An RFC 6901 JSON Pointer from path segments. */
export const pointer = (path: readonly PropertyKey[]) => path.map((part) => `/${escapeKey(String(part))}`).join("");
