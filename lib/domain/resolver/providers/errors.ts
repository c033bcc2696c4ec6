import type { ProviderId } from "./config.ts";

export type ProviderErrorCode = "timeout" | "rate_limited" | "http_error" | "malformed" | "network" | "refused";

/** An upstream failure. The resolver turns it into a warning and a partial answer, never a 500. */
export class ProviderError extends Error {
  readonly provider: ProviderId;
  readonly code: ProviderErrorCode;
  readonly retryAfterSeconds?: number;

  constructor(provider: ProviderId, code: ProviderErrorCode, message: string, retryAfterSeconds?: number) {
    super(message);
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
