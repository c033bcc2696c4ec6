import type { Capability } from "../../registry/capabilities.ts";
import type { Principal } from "../auth/tokens.ts";

/**
 * Per-token rate limiting. Answers the headers to send; throws 429 when the bucket is empty.
 * (Placeholder that never refuses; the token-bucket stores replace it.)
 */
export async function rateLimit(_principal: Principal, _capability: Capability): Promise<Record<string, string>> {
  return {};
}
