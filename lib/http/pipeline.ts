import { acceptedScopes, type Capability, scopeForInput } from "../../registry/capabilities.ts";
import type { Principal } from "../auth/tokens.ts";
import { asMember } from "../db/index.ts";
import { isHandlerResult } from "../domain/context.ts";
import { handlerFor } from "../domain/handlers.ts";
import { fromStoreError } from "../domain/store-errors.ts";
import { settleUploadKeys } from "../domain/uploads/settle.ts";
import { authenticate, authorize, authorizeAny } from "./authenticate.ts";
import { idempotencyFor } from "./idempotency.ts";
import { ApiError } from "./problem.ts";
import { rateLimit } from "./rate-limit.ts";
import { parseInput } from "./validation.ts";

export interface CallContext {
  requestId: string;
  headers: Headers;
  /** Already established by a session (settings pages); otherwise the Bearer token decides. */
  principal?: Principal;
}

export interface Outcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The one pipeline every surface uses (REST, tool invoke, MCP):
 * authenticate → rate limit → authorize → parse → idempotency (creates with Idempotency-Key) →
 * run as the member (the idempotent response is stored in the write's transaction) → map the store's answer.
 * Errors are thrown as ApiError carrying any headers gathered so far (rate-limit state).
 */
export async function execute(capability: Capability, rawInput: unknown, call: CallContext): Promise<Outcome> {
  const headers: Record<string, string> = {};
  const idempotency = idempotencyFor(capability, call.headers);
  try {
    const principal = call.principal ?? (await authenticate(call.headers));
    Object.assign(headers, await rateLimit(principal, capability));
    authorizeAny(principal, acceptedScopes(capability));
    const input = parseCapabilityInput(capability, rawInput);
    authorize(principal, scopeForInput(capability, input));
    const replay = await idempotency.reserve(principal.memberId, input);
    if (replay) return { ...replay, headers: { ...headers, ...replay.headers } };
    await settleUploadKeys(capability, input, principal.memberId);
    const handler = handlerFor(capability);
    if (!handler) throw new Error(`no handler for ${capability.tool}`);
    const prepared = handler.prepare
      ? await handler.prepare({ memberId: principal.memberId, input, capability }).catch((error: unknown) => {
          throw fromStoreError(error);
        })
      : undefined;
    const result = await asMember(principal.memberId, async (tx) =>
      idempotency.record(tx, await handler({ memberId: principal.memberId, tx, input, capability, prepared })),
    ).catch((error: unknown) => {
      throw fromStoreError(error);
    });
    if (isHandlerResult(result)) {
      return { status: result.status, body: result.data, headers: { ...headers, ...result.headers } };
    }
    return { status: capability.successStatus, body: result, headers };
  } catch (error) {
    await idempotency.release();
    if (error instanceof ApiError) Object.assign(error.headers, { ...headers, ...error.headers });
    throw error;
  }
}

/** Strict validation against the capability's input, naming read-only fields as such. */
export function parseCapabilityInput(capability: Capability, rawInput: unknown): Record<string, unknown> {
  if (typeof rawInput !== "object" || rawInput === null || Array.isArray(rawInput)) {
    throw new ApiError("invalid_request", "The input must be a JSON object.", {
      errors: [{ pointer: "", code: "invalid_type", message: "Expected a JSON object." }],
    });
  }
  const accepted = capability.input.shape;
  const readOnly = Object.keys(rawInput).filter((key) => capability.readOnlyFields.includes(key) && !(key in accepted));
  if (readOnly.length) {
    throw new ApiError("invalid_request", `Read-only field${readOnly.length > 1 ? "s" : ""}: ${readOnly.join(", ")}.`, {
      errors: readOnly.map((key) => ({
        pointer: `/${key}`,
        code: "read_only",
        message: `"${key}" is set by the service and cannot be written.`,
      })),
    });
  }
  return parseInput(capability.input, rawInput) as Record<string, unknown>;
}
