import type { CredentialLimits } from "../auth/credential-limits.ts";
import { limitsToStore } from "../auth/limits-json.ts";
import { checkLimits, type LimitChoices } from "../domain/credential-limit-choices.ts";

/** The form fields of components/credential-limits-fields.tsx, by limit. */
export const LIMIT_FIELDS = {
  collections: "collections",
  readOnly: "read_only",
  confirmDestructive: "confirm_destructive",
  tools: "tools",
} as const;

export type LimitsFormResult =
  | { ok: true; limits: CredentialLimits | null }
  | { ok: false; field: (typeof LIMIT_FIELDS)[keyof typeof LIMIT_FIELDS]; error: string };

const checked = (value: FormDataEntryValue | null) => value === "on" || value === "true" || value === "1";
const picked = (form: FormData, name: string) => [...new Set(form.getAll(name).map(String).filter(Boolean))];

/**
 * FormData → CredentialLimits, for any credential (the token page, the OAuth consent page): null
 * when nothing is limited. An id that is not one of the member's collections, or a name that is
 * not a tool, is refused with the field it came in, never dropped.
 */
export function parseCredentialLimits(form: FormData, choices: LimitChoices): LimitsFormResult {
  const limits: CredentialLimits = {
    collections: picked(form, LIMIT_FIELDS.collections),
    readOnly: checked(form.get(LIMIT_FIELDS.readOnly)),
    confirmDestructive: checked(form.get(LIMIT_FIELDS.confirmDestructive)),
    tools: picked(form, LIMIT_FIELDS.tools),
  };
  const check = checkLimits(limits, choices);
  if (!check.ok) return { ok: false, field: LIMIT_FIELDS[check.field], error: check.error };
  return { ok: true, limits: limitsToStore(check.limits) };
}

/** The limits as short labels for a list (the token list, connected apps). */
export function limitLabels(limits: CredentialLimits, collectionNames: ReadonlyMap<string, string>): string[] {
  const labels: string[] = [];
  if (limits.collections) {
    const names = limits.collections.map((id) => collectionNames.get(id) ?? "a deleted collection");
    labels.push(`collections: ${names.join(", ") || "none"}`);
  }
  if (limits.readOnly) labels.push("read-only");
  if (limits.confirmDestructive) labels.push("confirm deletes");
  if (limits.tools) labels.push(`tools: ${limits.tools.join(", ") || "none"}`);
  return labels;
}
