import { acceptedScopes, type Capability, scopeForInput } from "../../registry/capabilities.ts";
import { actorOf, type Caller, liveCheck } from "../auth/caller.ts";
import type { Actor } from "../db/index.ts";
import { asMember } from "../db/index.ts";
import { continuing } from "../db/index.ts";
import { recordRefusal } from "./refusals.ts";
import { Reply } from "../domain/context.ts";
import { holdDelete } from "../domain/delete-confirmations.ts";
import { handlerFor } from "../domain/handlers.ts";
import { fromStoreError } from "../domain/store-errors.ts";
import { settleUploadKeys } from "../domain/uploads/settle.ts";
import { authenticate, authorize, authorizeAny } from "../http/authenticate.ts";
import type { ResourceName } from "../http/oauth-urls.ts";
import { ApiError, fromDomainError } from "../http/problem.ts";
import { siteUrlFrom } from "../http/site-url.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { addressInput } from "./address.ts";
import { ConfirmationPending, confirmsDelete, enforceLimits } from "./credential-limits.ts";
import { idempotencyFor } from "./idempotency.ts";
import { parseCapabilityInput } from "./parse.ts";

export interface CallContext {
  requestId: string;
  headers: Headers;
  /** Already established (a settings-page session, the service); otherwise the Bearer token decides. */
  caller?: Caller;
  /** Values the REST path supplies ({id}); other surfaces carry them in the input. */
  path?: Readonly<Record<string, string>>;
  /** The protected resource called (an OAuth token's audience must be it): REST unless said. */
  resource?: ResourceName;
  /** Where the call came in (the actor's surface in events and the activity ledger); REST when absent. */
  surface?: Actor["surface"];
}

export interface Outcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The one pipeline every surface uses (REST, tool invoke, MCP, settings pages):
 * authenticate → rate limit → authorize → the credential's limits → address → parse → (a delete
 * the credential must have confirmed is held instead) → idempotency (creates with
 * Idempotency-Key) → run as the member (the idempotent response is stored in the write's
 * transaction) → map the store's answer. Errors are thrown as ApiError carrying any headers
 * gathered so far (rate-limit state).
 */
export async function execute(capability: Capability, rawInput: unknown, call: CallContext): Promise<Outcome> {
  const headers: Record<string, string> = {};
  const idempotency = idempotencyFor(capability, call.headers);
  let caller: Caller | undefined;
  const surface = call.surface ?? "rest";
  try {
    caller = call.caller ?? (await authenticate(call.headers, call.resource, acceptedScopes(capability)));
    Object.assign(headers, await rateLimit(caller, capability));
    authorizeAny(caller, acceptedScopes(capability), call.resource);
    enforceLimits(capability, caller.limits);
    const input = parseCapabilityInput(capability, addressInput(capability, rawInput, call.path));
    // The input picks the one scope that is needed (uploads: by purpose).
    if (capability.scopeBy) authorize(caller, scopeForInput(capability, input), call.resource);
    if (confirmsDelete(capability, caller.limits)) {
      throw new ConfirmationPending(await holdDelete(caller, capability, String(input.id), siteUrlFrom()));
    }
    const replay = await idempotency.reserve(caller.memberId, input);
    if (replay) return { ...replay, headers: { ...headers, ...replay.headers } };
    await settleUploadKeys(capability, input, caller.memberId);
    const handler = handlerFor(capability);
    const { memberId, scopes } = caller;
    const actor = actorOf(caller, surface);
    const prepared = handler.prepare
      ? await handler.prepare({ memberId, scopes, input, capability }).catch((error: unknown) => {
          throw fromStoreError(error);
        })
      : undefined;
    const result = await asMember(
      memberId,
      async (tx) => {
        // The stored response follows the handler's last statement, which must then not end the transaction.
        const step = idempotency.records() ? continuing(tx) : tx;
        return idempotency.record(
          tx,
          await handler({ memberId, scopes, tx: step, input, capability, prepared, actor }),
        );
      },
      { ...liveCheck(caller), collections: caller.limits?.collections, actor },
    ).catch((error: unknown) => {
      throw fromStoreError(error);
    });
    if (result instanceof Reply) {
      return { status: result.status, body: result.data, headers: { ...headers, ...result.headers } };
    }
    return { status: capability.successStatus, body: result, headers };
  } catch (error) {
    await idempotency.release();
    const problem = fromDomainError(error);
    if (caller) await recordRefusal(caller, surface, capability, rawInput, call.path, problem);
    if (problem instanceof ApiError) Object.assign(problem.headers, { ...headers, ...problem.headers });
    throw problem;
  }
}
