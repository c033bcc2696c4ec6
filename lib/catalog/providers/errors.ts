import type { ProviderId } from "./config.ts";

export type ProviderErrorCode =
  | "timeout"
  | "rate_limited"
  | "http_error"
  | "malformed"
  | "network"
  | "refused"
  /** Skipped: the provider failed repeatedly and its circuit is open for a cool-down. */
  | "circuit_open"
  /** Not asked: its shared request budget (budget.ts) is spent until after the deadline. */
  | "budget_exhausted";

/** An upstream failure. The resolver turns it into a warning and a partial answer, never a 500. */
export class ProviderError extends Error {
  readonly provider: ProviderId;
  readonly code: ProviderErrorCode;
  readonly retryAfterSeconds?: number;
  /** The provider's name did not resolve: no network, so its circuit opens at once. */
  readonly dns: boolean;
  /** A 4xx: the provider is up and refused this request, which says nothing about an outage. */
  readonly clientError: boolean;

  constructor(
    provider: ProviderId,
    code: ProviderErrorCode,
    message: string,
    retryAfterSeconds?: number,
    dns = false,
    clientError = false,
  ) {
    super(message);
    this.dns = dns;
    this.clientError = clientError;
    this.name = "ProviderError";
    this.provider = provider;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface ProviderWarning {
  provider: ProviderId;
  code: ProviderErrorCode;
  message: string;
}

export const toWarning = (error: ProviderError): ProviderWarning => ({
  provider: error.provider,
  code: error.code,
  message: error.message,
});
