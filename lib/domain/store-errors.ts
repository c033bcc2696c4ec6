import constraintErrors from "../../supabase/constraint-errors.json" with { type: "json" };
import { DomainError, type FieldError, type StoreReason } from "../errors/domain-error.ts";
import { invalidToken } from "../http/authenticate.ts";

interface PgError {
  code: string;
  message: string;
  /** postgres.js names them *_name; PGlite (pg-protocol) without the suffix. */
  constraint_name?: string;
  constraint?: string;
  column_name?: string;
  column?: string;
}

/** Constraint name → stable code and the input field it guards; a test keeps it complete. */
export const CONSTRAINT_ERRORS: Record<string, { code: string; pointer?: string }> = constraintErrors;

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
  const reason = storeReason(error);
  const errors: FieldError[] | undefined =
    reason.code && reason.pointer
      ? [{ pointer: reason.pointer, code: reason.code, message: error.message }]
      : undefined;
  const cls = error.code.slice(0, 2);
  if (error.code === "42501" || error.code === "P0001") {
    return new DomainError("write_refused", `The store refused the write: ${error.message}`, { reason, errors });
  }
  // The member transaction found the token revoked or expired since its (cached) look-up.
  if (error.code === "PDS41") return invalidToken();
  if (error.code === "PDS01") {
    return new DomainError("plan_required", error.message, { reason, errors });
  }
  // A reference to a row that does not exist is bad input; a row still referenced is a conflict.
  if (error.code === "23503" && /^insert or update on table/.test(error.message)) {
    return new DomainError("invalid_request", "A referenced record does not exist.", { reason, errors });
  }
  if (error.code === "23505" || error.code === "23503" || error.code === "40001" || error.code === "40P01") {
    return new DomainError("conflict", `The write conflicts with existing data: ${error.message}`, { reason, errors });
  }
  if (cls === "23" || cls === "22") {
    return new DomainError("invalid_request", `The store refused the value: ${error.message}`, { reason, errors });
  }
  return error;
}

/**
 * The spec's reason (SQLSTATE and message) plus, where the store names what refused, a code that
 * outlives the message's wording and a JSON pointer to the field: from the constraint's entry in
 * supabase/constraint-errors.json, or from the column a NOT NULL refusal names.
 */
function storeReason(error: PgError): StoreReason {
  const reason: StoreReason = { sqlstate: error.code, message: error.message };
  const constraint = error.constraint_name ?? error.constraint;
  const entry = constraint ? CONSTRAINT_ERRORS[constraint] : undefined;
  if (entry) return { ...reason, code: entry.code, ...(entry.pointer ? { pointer: entry.pointer } : {}) };
  const column = error.column_name ?? error.column;
  if (error.code === "23502" && column) return { ...reason, code: `${column}_required`, pointer: `/${column}` };
  return reason;
}
