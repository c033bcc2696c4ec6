import type { UploadPurpose } from "./define.ts";
import { resources } from "./index.ts";
import { UPLOAD_PURPOSES, UPLOAD_SCOPES } from "./operations/uploads.ts";
import type { Scope } from "./scopes.ts";

/**
 * What the export holds and which read scope each part needs, derived from the registry: a
 * resource's document needs the read scope of its family (profile → profile:read, collection-types
 * → collections:read, webhook-endpoints → webhooks:read); uploads need the read scope of what
 * their purpose is for, as minting one needs its write scope. A token gets the parts its scopes
 * allow, and the manifest lists the rest with the scope each would need.
 */
export interface ExportSection {
  /** The document in the archive, e.g. "todos.json". */
  file: string;
  /** A resource of the registry, or "tokens" / "uploads". */
  resource: string;
  scope: Scope;
  /** Uploads only: the purpose this part holds. */
  purpose?: UploadPurpose;
}

const readScopeOf = (scope: Scope) => scope.replace(/:write$/, ":read") as Scope;

/** Token metadata is the account's, like the profile. */
export const EXPORT_TOKENS_SCOPE: Scope = "profile:read";

/** The read scope each upload purpose needs in an export (avatar → profile:read, …). */
export const EXPORT_UPLOAD_SCOPES: Readonly<Record<UploadPurpose, Scope>> = Object.fromEntries(
  UPLOAD_PURPOSES.map((purpose) => [purpose, readScopeOf(UPLOAD_SCOPES[purpose])]),
) as Record<UploadPurpose, Scope>;

export const EXPORT_SECTIONS: readonly ExportSection[] = [
  ...resources.map((resource) => ({
    file: `${resource.name}.json`,
    resource: resource.name,
    scope: `${resource.scope}:read` as Scope,
  })),
  { file: "tokens.json", resource: "tokens", scope: EXPORT_TOKENS_SCOPE },
  ...UPLOAD_PURPOSES.map((purpose) => ({
    file: "uploads.json",
    resource: "uploads",
    scope: EXPORT_UPLOAD_SCOPES[purpose],
    purpose,
  })),
];

/** Every read scope some part of the export needs: any one of them lets the export run. */
export const EXPORT_SCOPES: readonly Scope[] = [...new Set(EXPORT_SECTIONS.map((section) => section.scope))];
