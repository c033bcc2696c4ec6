/**
 * What a credential (a personal access token or an OAuth grant) may do beyond its scopes. The member
 * chooses these when making the token or approving the grant; both kinds carry the same shape so the
 * store and the pipeline enforce them once. Absent fields mean no limit.
 */
export interface CredentialLimits {
  /** Only these collections, and the items in them, exist for the credential (enforced by RLS). */
  readonly collections?: readonly string[];
  /** Every write is refused (403). */
  readonly readOnly?: boolean;
  /** A delete through a tool becomes a directive the member confirms in the browser. */
  readonly confirmDestructive?: boolean;
  /** Only these tools (registry tool names) may be called. */
  readonly tools?: readonly string[];
}

export const NO_LIMITS: CredentialLimits = Object.freeze({});
