/**
 * An OAuth error as RFC 6749 §5.2 / RFC 7591 §3.2.2 / RFC 7009 answer it: a code from the
 * registry of OAuth errors, a description for the developer, and the HTTP status.
 */
export class OAuthError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, description: string, status = 400) {
    super(description);
    this.name = "OAuthError";
    this.code = code;
    this.status = status;
  }
}
