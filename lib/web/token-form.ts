import { isScope, type Scope } from "../../registry/scopes.ts";
import { createToken, DEFAULT_TOKEN_DAYS } from "../auth/tokens.ts";

/** The expiry choices offered; a year is 365 days. */
export const EXPIRY_CHOICES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;
export { DEFAULT_TOKEN_DAYS };

export type TokenFormResult =
  | { ok: true; token: string; name: string; scopes: Scope[] }
  | { ok: false; error: string };

/** Validates the settings form and creates the token; the secret is answered once, here. */
export async function createTokenFromForm(memberId: string, form: FormData): Promise<TokenFormResult> {
  const name = String(form.get("name") ?? "").trim();
  if (name.length < 1 || name.length > 100) return { ok: false, error: "Give the token a name of 1 to 100 characters." };
  const days = Number(form.get("days") ?? DEFAULT_TOKEN_DAYS);
  if (!EXPIRY_CHOICES.some((choice) => choice.days === days)) {
    return { ok: false, error: "Pick an expiry: 7, 30 or 90 days, or 1 year." };
  }
  const picked = form.getAll("scopes").map(String);
  const unknown = picked.filter((scope) => !isScope(scope));
  if (unknown.length) return { ok: false, error: `Unknown scope: ${unknown.join(", ")}.` };
  const scopes = picked.filter(isScope);
  if (!scopes.length) return { ok: false, error: "Pick at least one scope." };
  const { token } = await createToken({ memberId, name, scopes, days });
  return { ok: true, token, name, scopes };
}
