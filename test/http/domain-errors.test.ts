import { describe, expect, it } from "vitest";
import { DOMAIN_ERROR_CODES, DomainError } from "../../lib/errors/domain-error.ts";
import { ApiError, asApiError, fromDomainError, PROBLEM_CODES } from "../../lib/http/problem.ts";

describe("domain errors at the HTTP edge (lib/http/problem.ts)", () => {
  it("maps every domain code to the problem of the same name, keeping the details", () => {
    for (const code of DOMAIN_ERROR_CODES) {
      const errors = [{ pointer: "/x", code: "bad_x", message: "x is bad" }];
      const reason = { sqlstate: "23505", message: "taken" };
      const problem = asApiError(new DomainError(code, "refused", { errors, reason }), "req_1").toProblem("req_1");
      expect(problem).toMatchObject({ code, status: PROBLEM_CODES[code].status, detail: "refused", errors, reason });
    }
  });

  it("turns what is allowed into Allow, and leaves anything else as it was", () => {
    const mapped = fromDomainError(new DomainError("method_not_allowed", "PUT only", { allow: ["PUT"] }));
    expect(mapped).toBeInstanceOf(ApiError);
    expect((mapped as ApiError).headers).toEqual({ Allow: "PUT" });
    const other = new Error("bug");
    expect(fromDomainError(other)).toBe(other);
  });
});
