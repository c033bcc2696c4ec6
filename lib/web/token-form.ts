import { isScope, READ_ONLY_SCOPES, SCOPES, type Scope } from "../../registry/scopes.ts";
import type { CredentialLimits } from "../auth/credential-limits.ts";
import { createToken, DEFAULT_TOKEN_DAYS, isAllowedExpiry, MAX_TOKEN_DAYS } from "../auth/tokens.ts";
import { limitChoices } from "../domain/credential-limit-choices.ts";
import { parseCredentialLimits } from "./credential-limits-form.ts";

/** The expiry choices offered besides a custom date; a year is 365 days. */
export const EXPIRY_CHOICES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;
export { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS };

/** A token expires within this many days: the list marks it "expires soon". */
export const EXPIRES_SOON_DAYS = 7;

export type TokenFormResult =
  | { ok: true; token: string; name: string; scopes: Scope[]; expiresAt: string; limits: CredentialLimits | null }
  | { ok: false; error: string /** The limits field refused, when it was one of them. */; field?: string };

/** A custom date (YYYY-MM-DD) means 00:00 UTC of that day; answers null when it is not a real date. */
export function customExpiry(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

export function validateTokenName(raw: FormDataEntryValue | null): string | null {
  const name = String(raw ?? "").trim();
  return name.length >= 1 && name.length <= 100 ? name : null;
}

/** Validates the settings form and creates the token; the secret is answered once, here. */
export async function createTokenFromForm(memberId: string, form: FormData): Promise<TokenFormResult> {
  const name = validateTokenName(form.get("name"));
  if (!name) return { ok: false, error: "Give the token a name of 1 to 100 characters." };
  const choice = String(form.get("days") ?? DEFAULT_TOKEN_DAYS);
  let days: number | undefined;
  let expiresAt: Date | undefined;
  if (choice === "custom") {
    const date = customExpiry(String(form.get("expires_on") ?? ""));
    if (!date || !isAllowedExpiry(date)) {
      return { ok: false, error: `Pick a custom expiry date from tomorrow to ${MAX_TOKEN_DAYS} days from now.` };
    }
    expiresAt = date;
  } else {
    days = Number(choice);
    if (!EXPIRY_CHOICES.some((c) => c.days === days)) {
      return { ok: false, error: "Pick an expiry: 7, 30 or 90 days, 1 year, or a custom date." };
    }
  }
  const picked = form.getAll("scopes").map(String);
  const unknown = picked.filter((scope) => !isScope(scope));
  if (unknown.length) return { ok: false, error: `Unknown scope: ${unknown.join(", ")}.` };
  const scopes = picked.filter(isScope);
  if (!scopes.length) return { ok: false, error: "Pick at least one scope." };
  const parsed = parseCredentialLimits(form, await limitChoices(memberId));
  if (!parsed.ok) return { ok: false, error: parsed.error, field: parsed.field };
  const { token, record } = await createToken({ memberId, name, scopes, days, expiresAt, limits: parsed.limits });
  return { ok: true, token, name, scopes, expiresAt: record.expires_at, limits: record.limits };
}

/** Starting points of the scope picker; the form itself starts with none. */
export const TOKEN_PRESETS: readonly { label: string; scopes: readonly Scope[] }[] = [
  { label: "Read-only", scopes: READ_ONLY_SCOPES },
  {
    label: "Assistant",
    // What an assistant needs to find and play songs, keep favorites and manage todos.
    scopes: ["items:read", "items:write", "collections:read", "collections:write", "todos:read", "todos:write"],
  },
  { label: "Everything", scopes: SCOPES },
];
