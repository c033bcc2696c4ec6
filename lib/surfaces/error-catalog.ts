import { capabilities } from "../../registry/capabilities.ts";
import { PROBLEM_CODES, type ProblemCode } from "../http/problem.ts";
import { errorCases } from "./openapi-errors.ts";

export interface ErrorEntry {
  code: ProblemCode;
  status: number;
  title: string;
  /** Every distinct reason the operations give for it, from the same source as the OpenAPI responses. */
  when: string[];
  /** How many operations can answer it. */
  operations: number;
}

const SCOPE_LINE =
  "The token lacks the scope the operation needs (each operation names it; uploads take the write scope of their purpose).";

const NOT_OWNER_LINE =
  " Also when the member can read the record but it is another member's (reason.code `not_owner`): each operation names who may change it.";

/** Cases that no operation declares (they come from the pipeline or the platform). */
const GENERAL: Partial<Record<ProblemCode, string>> = {
  method_not_allowed: "The path exists but not with this method; Allow lists the methods it offers.",
  rate_limited: "The token's bucket is empty; wait Retry-After seconds. violated-policies names the bucket.",
  unavailable: "The service cannot reach its database right now; retry later.",
  internal: "An unexpected error; it is logged with the request_id, and the answer has no details.",
};

/** Cases the server answers before any operation is chosen (lib/http/request-target.ts, lib/surfaces/node-server.ts). */
const BEFORE_ROUTING: Partial<Record<ProblemCode, string>> = {
  malformed_request:
    "The request line has nothing to route: a target of * (asterisk-form) with a method other than OPTIONS (OPTIONS * answers 200 with Allow), a target that is neither a path nor an http(s) URL without user info, or a Host header that is empty, not a host, or sent twice.",
  method_not_allowed:
    "CONNECT, on any target: the server is not a proxy. TRACE, on any target: the server does not echo requests; Allow lists the target's methods.",
};

/** The target of every problem's `type` (/docs/errors#<code>): each code, when it is answered, and how often. */
export function errorCatalog(): ErrorEntry[] {
  const reasons = new Map<ProblemCode, Set<string>>();
  const counts = new Map<ProblemCode, number>();
  for (const capability of capabilities) {
    const seen = new Set<ProblemCode>();
    for (const errorCase of errorCases(capability)) {
      // One line for the per-scope variants: each operation's own scope is in its reference.
      const when = errorCase.when
        .replace(/^The token lacks [^.]+\.(?: The token lacks the write scope of the purpose\.)?/, SCOPE_LINE)
        .replace(/ Also when the member can read the .*$/, NOT_OWNER_LINE);
      reasons.set(errorCase.code, (reasons.get(errorCase.code) ?? new Set()).add(when));
      seen.add(errorCase.code);
    }
    for (const code of seen) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return (Object.keys(PROBLEM_CODES) as ProblemCode[])
    .map((code) => ({
      code,
      status: PROBLEM_CODES[code].status,
      title: PROBLEM_CODES[code].title,
      when: [
        ...(reasons.get(code)?.size ? [...(reasons.get(code) ?? [])] : GENERAL[code] ? [GENERAL[code]] : []),
        ...(BEFORE_ROUTING[code] ? [BEFORE_ROUTING[code]] : []),
      ],
      operations: counts.get(code) ?? 0,
    }))
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}
