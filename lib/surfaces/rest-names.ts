import { ApiError } from "../http/problem.ts";

/**
 * An operation may name an input field differently on REST (registry queryAliases: GET /search?q=
 * is the tool's query). The pipeline speaks the tool's names; these translate on the way in, and
 * on the way out point a problem at the name the REST caller sent.
 */
export type Aliases = Readonly<Record<string, string>>;

/**
 * Turns each REST name sent (GET /search?q=) into the tool's field, refusing both at once, and
 * answers the REST name of every field not sent under its own (field → alias): a problem about it,
 * sent or missing, is pointed at the name a REST client knows.
 */
export function fromRestNames(input: unknown, aliases: Aliases | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (typeof input !== "object" || input === null || Array.isArray(input)) return names;
  const named = input as Record<string, unknown>;
  for (const [alias, field] of Object.entries(aliases ?? {})) {
    if (field in named && alias in named) {
      throw new ApiError("invalid_request", `Send either "${alias}" or "${field}", not both.`, {
        errors: [
          { pointer: `/${alias}`, code: "duplicate_parameter", message: `"${alias}" is another name for "${field}".` },
        ],
      });
    }
    if (field in named) continue;
    names.set(field, alias);
    if (alias in named) {
      named[field] = named[alias];
      delete named[alias];
    }
  }
  return names;
}

/** The problem with its pointers (and the detail that starts with one) naming the REST parameters. */
export function withRestNames(error: unknown, names: ReadonlyMap<string, string>): unknown {
  if (!(error instanceof ApiError) || names.size === 0) return error;
  const rename = (pointer: string) => {
    const [head = "", ...rest] = pointer.slice(1).split("/");
    const alias = pointer.startsWith("/") ? names.get(head) : undefined;
    return alias === undefined ? pointer : ["", alias, ...rest].join("/");
  };
  const errors = error.errors?.map((entry) => ({ ...entry, pointer: rename(entry.pointer) }));
  const reason = error.reason?.pointer ? { ...error.reason, pointer: rename(error.reason.pointer) } : error.reason;
  const first = error.errors?.[0]?.pointer;
  // Validation's detail opens with the first pointer (lib/http/validation.ts).
  const detail =
    first && error.message.startsWith(`${first}:`)
      ? `${rename(first)}${error.message.slice(first.length)}`
      : error.message;
  return new ApiError(error.code, detail, {
    errors,
    reason,
    violatedPolicies: error.violatedPolicies,
    headers: error.headers,
  });
}
