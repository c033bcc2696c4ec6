/**
 * What the domain (lib/domain, lib/catalog) raises when it refuses: a code from a small vocabulary
 * and the details a caller can act on, with no status or header. The HTTP edge maps it to a
 * problem+json answer (lib/http/problem.ts: fromDomainError), so the domain does not know HTTP.
 */
export const DOMAIN_ERROR_CODES = [
  /** Nothing with this id is visible to the caller (another member's row too). */
  "not_found",
  /** The input is well-formed but not acceptable (details.errors names the fields). */
  "invalid_request",
  /** The input cannot be read at all (a byte count that does not match). */
  "malformed_request",
  /** The store refused the write (details.reason carries its word), or a link is not valid. */
  "write_refused",
  /** The member's plan does not include this. */
  "plan_required",
  /** The write conflicts with what exists, or was already done. */
  "conflict",
  /** An upstream service (a provider, the object store) could not be asked. */
  "upstream_unavailable",
  /** This operation is not offered here (details.allow lists what is). */
  "method_not_allowed",
  /** The content's type is not the one expected. */
  "unsupported_media_type",
  /** The content is larger than allowed. */
  "payload_too_large",
  /** The input asks for more than the credential's scopes reach (details.scopes names the missing ones). */
  "insufficient_scope",
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export interface FieldError {
  /** JSON Pointer into the request input, e.g. "/rating". */
  pointer: string;
  code: string;
  message: string;
}

export interface StoreReason {
  sqlstate: string;
  message: string;
  /** Stable per constraint (derived from its name, lib/domain/store-errors.ts), e.g. "handle_taken". */
  code?: string;
  /** JSON Pointer to the input field the constraint guards, e.g. "/handle". */
  pointer?: string;
}

export interface DomainErrorDetails {
  errors?: FieldError[];
  reason?: StoreReason;
  /** With method_not_allowed: the operations that are offered. */
  allow?: readonly string[];
  /** With insufficient_scope: the scopes the input needs and the credential lacks. */
  scopes?: readonly string[];
}

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly details: DomainErrorDetails;

  constructor(code: DomainErrorCode, message: string, details: DomainErrorDetails = {}) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.details = details;
  }
}
