import { acceptedScopes, type Capability } from "../../registry/capabilities.ts";
import type { ConfirmDeleteDirective } from "../../registry/confirm-delete.ts";
import type { CredentialLimits } from "../auth/credential-limits.ts";
import { ApiError } from "../http/problem.ts";

/**
 * A credential's limits beyond its scopes, checked once for every surface (REST, invoke, MCP, and
 * the catalog, which lists only what would pass). The collections limit is the store's own (RLS);
 * here only its one refusal that RLS would answer obscurely: creating a collection.
 */

/** A write: every scope that allows it is a :write scope (resolve is a POST that writes no member data). */
export const isWrite = (capability: Capability): boolean =>
  acceptedScopes(capability).every((scope) => scope.endsWith(":write"));

export const isDelete = (capability: Capability): boolean =>
  capability.source.kind === "resource" && capability.source.verb === "delete";

const createsCollection = (capability: Capability): boolean =>
  capability.source.kind === "resource" &&
  capability.source.verb === "create" &&
  capability.source.resource.credentialChoosesRows === true;

/**
 * A webhook endpoint receives the member's whole event stream, every collection's included, and its
 * delivery log lists each event's kind and time: pointing, adding or replaying one would widen a
 * collection-limited credential's reach, and reading the log would show what it cannot see.
 */
export const usesWebhooks = (capability: Capability): boolean =>
  acceptedScopes(capability).every((scope) => scope.startsWith("webhooks:"));

/** Why the limits refuse the capability outright, or null when they let it run. */
export function limitRefusal(capability: Capability, limits: CredentialLimits | undefined): ApiError | null {
  if (!limits) return null;
  if (limits.tools && !limits.tools.includes(capability.tool)) {
    return new ApiError(
      "tool_not_allowed",
      `This credential may call only the tools the member chose (${limits.tools.join(", ") || "none"}); ${capability.tool} is not one of them.`,
    );
  }
  if (limits.readOnly && isWrite(capability)) {
    return new ApiError(
      "read_only_credential",
      `This credential is read-only: ${capability.tool} writes, so it is refused.`,
    );
  }
  if (limits.collections && createsCollection(capability)) {
    return new ApiError(
      "collection_limited",
      "This credential is limited to the collections the member chose, so it cannot create a collection (the new one would be outside its list). The member can create it, then make a credential that includes it.",
    );
  }
  if (limits.collections && usesWebhooks(capability)) {
    return new ApiError(
      "collection_limited",
      `This credential is limited to the collections the member chose, so it cannot use webhook endpoints (${capability.tool}): an endpoint receives, and its delivery log lists, the events of every collection. The member can manage endpoints signed in, or with a credential not limited to collections.`,
    );
  }
  return null;
}

export function enforceLimits(capability: Capability, limits: CredentialLimits | undefined): void {
  const refusal = limitRefusal(capability, limits);
  if (refusal) throw refusal;
}

/** Whether a delete must wait for the member's confirmation instead of running. */
export const confirmsDelete = (capability: Capability, limits: CredentialLimits | undefined): boolean =>
  limits?.confirmDestructive === true && isDelete(capability);

/**
 * A delete held for the member's confirmation. REST answers it as the 403 it is (nothing was
 * deleted; the detail names the page); a tool call (invoke, MCP) answers the directive instead,
 * which is the tool's documented answer for such a credential.
 */
export class ConfirmationPending extends ApiError {
  readonly directive: ConfirmDeleteDirective;

  constructor(directive: ConfirmDeleteDirective) {
    super(
      "confirmation_required",
      `Nothing was deleted: this credential asks the member to confirm deletes. The member can confirm this one, signed in, at ${directive.url} (until ${directive.expires_at}).`,
    );
    this.directive = directive;
  }
}
