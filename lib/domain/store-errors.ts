import { ApiError } from "../http/problem.ts";

interface PgError {
  code: string;
  message: string;
}

const isPgError = (error: unknown): error is PgError =>
  typeof error === "object" &&
  error !== null &&
  typeof (error as PgError).code === "string" &&
  /^[0-9A-Z]{5}$/.test((error as PgError).code);

/**
 * The store's refusal becomes a problem carrying its reason (SQLSTATE and message); nothing else
 * of the SQL reaches the client. Errors that are not the store's pass through untouched.
 */
export function fromStoreError(error: unknown): unknown {
  if (!isPgError(error)) return error;
  const reason = { sqlstate: error.code, message: error.message };
  const cls = error.code.slice(0, 2);
  if (error.code === "42501" || error.code === "P0001") {
    return new ApiError("write_refused", `The store refused the write: ${error.message}`, { reason });
  }
  if (error.code === "PDS01") {
    return new ApiError("plan_required", error.message, { reason });
  }
  // A reference to a row that does not exist is bad input; a row still referenced is a conflict.
  if (error.code === "23503" && /^insert or update on table/.test(error.message)) {
    return new ApiError("invalid_request", "A referenced record does not exist.", { reason });
  }
  if (error.code === "23505" || error.code === "23503" || error.code === "40001" || error.code === "40P01") {
    return new ApiError("conflict", `The write conflicts with existing data: ${error.message}`, { reason });
  }
  if (cls === "23" || cls === "22") {
    return new ApiError("invalid_request", `The store refused the value: ${error.message}`, { reason });
  }
  return error;
}
