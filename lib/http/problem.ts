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

export interface FieldError {
  /** JSON Pointer into the request input, e.g. "/rating". */
  pointer: string;
  code: string;
  message: string;
}

export interface StoreReason {
  sqlstate: string;
  message: string;
  /** Stable per constraint (supabase/constraint-errors.json), e.g. "handle_taken". */
  code?: string;
  /** JSON Pointer to the input field the constraint guards, e.g. "/handle". */
  pointer?: string;
}

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

/** Anything that is not an ApiError is a bug: logged with the request id, never echoed. */
export function asApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  console.error(`[${requestId}] unexpected error`, error);
  return new ApiError("internal", "Something went wrong on our side. Quote the request id when reporting it.");
}
