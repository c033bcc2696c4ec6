import { DomainError, type DomainErrorCode, type FieldError, type StoreReason } from "../errors/domain-error.ts";

export type { FieldError, StoreReason };

/** One error class, one code → status table, one body shape (RFC 9457 problem+json). */
export const PROBLEM_CODES = {
  unauthorized: { status: 401, title: "Unauthorized" },
  insufficient_scope: { status: 403, title: "Insufficient scope" },
  write_refused: { status: 403, title: "Write refused" },
  plan_required: { status: 403, title: "Plan required" },
  read_only_credential: { status: 403, title: "Read-only credential" },
  tool_not_allowed: { status: 403, title: "Tool not allowed" },
  collection_limited: { status: 403, title: "Limited to chosen collections" },
  confirmation_required: { status: 403, title: "Confirmation required" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  idempotency_in_flight: { status: 409, title: "Idempotent request in flight" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  invalid_request: { status: 422, title: "Invalid request" },
  malformed_request: { status: 400, title: "Malformed request" },
  idempotency_mismatch: { status: 422, title: "Idempotency key reused" },
  rate_limited: { status: 429, title: "Too many requests" },
  upstream_unavailable: { status: 502, title: "Upstream unavailable" },
  unavailable: { status: 503, title: "Service unavailable" },
  internal: { status: 500, title: "Internal error" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  request_id: string;
  errors?: FieldError[];
  reason?: StoreReason;
  /** On 429: the exhausted rate-limit policies (draft-ietf-httpapi-ratelimit-headers §5.1). */
  "violated-policies"?: string[];
}

export class ApiError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly reason?: StoreReason;
  readonly violatedPolicies?: string[];
  readonly headers: Record<string, string>;

  constructor(
    code: ProblemCode,
    detail: string,
    extra: {
      errors?: FieldError[];
      reason?: StoreReason;
      violatedPolicies?: string[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.code = code;
    this.status = PROBLEM_CODES[code].status;
    this.errors = extra.errors;
    this.reason = extra.reason;
    this.violatedPolicies = extra.violatedPolicies;
    this.headers = extra.headers ?? {};
  }

  toProblem(requestId: string): Problem {
    return {
      type: `/docs/errors#${this.code}`,
      title: PROBLEM_CODES[this.code].title,
      status: this.status,
      detail: this.message,
      code: this.code,
      request_id: requestId,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.violatedPolicies ? { "violated-policies": this.violatedPolicies } : {}),
    };
  }
}

/** The problem each domain refusal is: the same name, so the reference's codes are the domain's. */
const DOMAIN_PROBLEM = {
  not_found: "not_found",
  invalid_request: "invalid_request",
  malformed_request: "malformed_request",
  write_refused: "write_refused",
  plan_required: "plan_required",
  conflict: "conflict",
  upstream_unavailable: "upstream_unavailable",
  method_not_allowed: "method_not_allowed",
  unsupported_media_type: "unsupported_media_type",
  payload_too_large: "payload_too_large",
  insufficient_scope: "insufficient_scope",
} as const satisfies Record<DomainErrorCode, ProblemCode>;

/** The HTTP edge's reading of a domain refusal (lib/errors/domain-error.ts); anything else as it is. */
export function fromDomainError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const { errors, reason, allow, scopes } = error.details;
  return new ApiError(DOMAIN_PROBLEM[error.code], error.message, {
    errors,
    reason,
    ...(allow ? { headers: { Allow: allow.join(", ") } } : {}),
    ...(scopes
      ? { headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scopes.join(" ")}"` } }
      : {}),
  });
}

/** Anything that is neither an ApiError nor a domain refusal is a bug: logged with the request id, never echoed. */
export function asApiError(error: unknown, requestId: string): ApiError {
  const known = fromDomainError(error);
  if (known instanceof ApiError) return known;
  console.error(`[${requestId}] unexpected error`, error);
  return new ApiError("internal", "Something went wrong on our side. Quote the request id when reporting it.");
}
