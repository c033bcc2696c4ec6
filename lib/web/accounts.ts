import { z } from "zod";
import { createMember } from "../auth/members.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { clearFailures, recordFailure, throttleKey, waitBeforeAttempt } from "../auth/sessions-throttle.ts";
import { asService } from "../db/index.ts";

export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 200;

/** One answer for a wrong password and an unknown email, so sign-in does not reveal who is a member. */
export const BAD_CREDENTIALS = "That email and password do not match an account.";

export type AccountResult = { ok: true; memberId: string } | { ok: false; error: string };

const emailSchema = z.email().max(254);
const passwordSchema = z.string().min(MIN_PASSWORD).max(MAX_PASSWORD);

export async function signUp(email: string, password: string): Promise<AccountResult> {
  if (!emailSchema.safeParse(email.trim()).success) return { ok: false, error: "Enter a valid email address." };
  if (!passwordSchema.safeParse(password).success) {
    return { ok: false, error: `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.` };
  }
  try {
    const member = await createMember({ email: email.trim(), password });
    return { ok: true, memberId: member.id };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      return { ok: false, error: "An account with this email already exists. Sign in instead." };
    }
    throw error;
  }
}

/**
 * Checks the password under two throttles: email + address (tight) and email alone (looser, so
 * rotating X-Forwarded-For does not buy unlimited guesses). Inside a pause the password is not
 * even checked; the answer says how long to wait, the same for members and strangers.
 */
export async function signIn(email: string, password: string, address: string): Promise<AccountResult> {
  const keys = [throttleKey(email, address), throttleKey(email, "*")];
  const wait = Math.max(waitBeforeAttempt(keys[0] ?? ""), waitBeforeAttempt(keys[1] ?? "", Date.now(), 4));
  if (wait > 0) {
    return { ok: false, error: `Too many failed attempts. Try again in ${Math.ceil(wait / 1000)} seconds.` };
  }
  const [row] = await asService((tx) =>
    tx.query<{ id: string; password_hash: string | null }>(
      // citext's own operator: the search path does not reach the extensions schema, and a plain
      // "=" would fall back to case-sensitive text equality.
      "select id, password_hash from app_private.members where email operator(extensions.=) $1::extensions.citext",
      [email.trim()],
    ),
  );
  // verifyPassword spends the same scrypt work when there is no hash, so timing does not tell either.
  const valid = await verifyPassword(password, row?.password_hash ?? null);
  if (!row || !valid) {
    for (const key of keys) recordFailure(key);
    return { ok: false, error: BAD_CREDENTIALS };
  }
  for (const key of keys) clearFailures(key);
  return { ok: true, memberId: row.id };
}
