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
  table_name?: string;
  table?: string;
}

export interface ConstraintError {
  code: string;
  pointer?: string;
}

/**
 * The constraints whose code the naming pattern does not give, each with why (a name that states a
 * rule, not a column; a code published before the pattern). Everything else is derived.
 */
export const CONSTRAINT_EXCEPTIONS: Readonly<Record<string, ConstraintError & { why: string }>> = constraintErrors;

/** `<table>_<column>_<suffix>`: what each suffix says went wrong with the column. */
const SUFFIX_CODES: Readonly<Record<string, string>> = {
  check: "invalid",
  length: "invalid",
  max: "invalid",
  format: "invalid",
  key: "taken",
  fkey: "not_found",
};

/** Tables no request body writes (the service's own records): a refusal there names no input field. */
const TABLES_WITHOUT_INPUT: ReadonlySet<string> = new Set([
  "activity",
  "catalog_completions",
  "catalog_merges",
  "catalog_search_words",
  "delete_confirmations",
  "idempotency_keys",
  "oauth_codes",
  "oauth_tokens",
  "resolver_cache",
  "sessions",
  "webhook_deliveries",
  "webhook_secrets",
]);

/** Columns the service fills with the caller's id, never sent: no pointer. */
const CALLER_COLUMNS: ReadonlySet<string> = new Set([
  "owner_id",
  "member_id",
  "sender_id",
  "follower_id",
  "blocker_id",
]);

/**
 * What a constraint's name says, `<table>_<column>_<suffix>`: `check|length|max|format` →
 * `<column>_invalid`, `key` → `<column>_taken`, `fkey` → `<column>_not_found` (owner_id:
 * `owner_not_found`), with the pointer `/<column>` where a request sends that column. A new
 * table's constraints named this way need no entry anywhere.
 */
export function derivedConstraintError(constraint: string, table: string | undefined): ConstraintError | undefined {
  if (!table || !constraint.startsWith(`${table}_`)) return undefined;
  const match = /^(.+)_(check|length|max|format|key|fkey)$/.exec(constraint.slice(table.length + 1));
  if (!match) return undefined;
  const [, column = "", suffix = ""] = match;
  if (suffix === "fkey" && column === "owner_id") return { code: "owner_not_found" };
  const code = `${column}_${SUFFIX_CODES[suffix]}`;
  return TABLES_WITHOUT_INPUT.has(table) || CALLER_COLUMNS.has(column) ? { code } : { code, pointer: `/${column}` };
}

/** The stable code, and the input field it guards, of a constraint of `table`: its exception, else its name's. */
export function constraintError(constraint: string, table: string | undefined): ConstraintError | undefined {
  const listed = CONSTRAINT_EXCEPTIONS[constraint];
  if (listed) return listed.pointer ? { code: listed.code, pointer: listed.pointer } : { code: listed.code };
  return derivedConstraintError(constraint, table);
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
 * outlives the message's wording and a JSON pointer to the field: from the constraint's name
 * (constraintError), or from the column a NOT NULL refusal names.
 */
function storeReason(error: PgError): StoreReason {
  const reason: StoreReason = { sqlstate: error.code, message: error.message };
  const constraint = error.constraint_name ?? error.constraint;
  const entry = constraint ? constraintError(constraint, error.table_name ?? error.table) : undefined;
  if (entry) return { ...reason, code: entry.code, ...(entry.pointer ? { pointer: entry.pointer } : {}) };
  const column = error.column_name ?? error.column;
  if (error.code === "23502" && column) return { ...reason, code: `${column}_required`, pointer: `/${column}` };
  return reason;
}
