import { z } from "zod";
import { createMember, SAME_EMAIL } from "../auth/members.ts";
import { hashPassword, needsRehash, verifyPassword } from "../auth/passwords.ts";
import {
  clearFailures,
  EMAIL_WIDE_FACTOR,
  recordFailure,
  throttleKey,
  waitBeforeAttempt,
} from "../auth/sessions-throttle.ts";
import { asService } from "../db/index.ts";

export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 200;

/** One answer for a wrong password and an unknown email, so sign-in does not reveal who is a member. */
export const BAD_CREDENTIALS = "That email and password do not match an account.";

export type AccountResult = { ok: true; memberId: string } | { ok: false; error: string };

const emailSchema = z.email().max(254);
const passwordSchema = z.string().min(MIN_PASSWORD).max(MAX_PASSWORD);

/** The same rules for a new account and a new password, in both auth modes. */
export function checkCredentials(email: string, password: string): string | null {
  if (!emailSchema.safeParse(email.trim()).success) return "Enter a valid email address.";
  return checkNewPassword(password);
}

export function checkNewPassword(password: string): string | null {
  return passwordSchema.safeParse(password).success
    ? null
    : `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`;
}

export async function signUp(email: string, password: string): Promise<AccountResult> {
  const invalid = checkCredentials(email, password);
  if (invalid) return { ok: false, error: invalid };
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
 * many addresses do not buy unlimited guesses). The address is lib/http/client-address.ts's. Inside a pause the password is not
 * even checked; the answer says how long to wait, the same for members and strangers.
 */
export async function signIn(email: string, password: string, address: string): Promise<AccountResult> {
  const keys = [throttleKey(email, address), throttleKey(email, "*")];
  const wait = Math.max(
    waitBeforeAttempt(keys[0] ?? ""),
    waitBeforeAttempt(keys[1] ?? "", Date.now(), EMAIL_WIDE_FACTOR),
  );
  if (wait > 0) {
    return { ok: false, error: `Too many failed attempts. Try again in ${Math.ceil(wait / 1000)} seconds.` };
  }
  const [row] = await asService((tx) =>
    tx.query<{ id: string; encrypted_password: string | null }>(
      `select u.id, u.encrypted_password from auth.users u where ${SAME_EMAIL} and u.is_sso_user = false`,
      [email.trim()],
    ),
  );
  // verifyPassword spends the same work when there is no hash, so timing does not tell either.
  const valid = await verifyPassword(password, row?.encrypted_password ?? null);
  if (!row || !valid) {
    for (const key of keys) recordFailure(key);
    return { ok: false, error: BAD_CREDENTIALS };
  }
  for (const key of keys) clearFailures(key);
  await asService((tx) => tx.query("update auth.users set last_sign_in_at = now() where id = $1", [row.id]));
  // scrypt (ours before argon2id) or bcrypt (GoTrue's) is replaced by argon2id now that we know the password.
  if (row.encrypted_password && needsRehash(row.encrypted_password)) await setPassword(row.id, password);
  return { ok: true, memberId: row.id };
}

/** Checks the current password (same answer as sign-in when wrong) and stores the new one. */
export async function changePassword(
  memberId: string,
  current: string,
  next: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const invalid = checkNewPassword(next);
  if (invalid) return { ok: false, error: invalid };
  if (!(await memberHasPassword(memberId, current))) {
    return { ok: false, error: "The current password is not right." };
  }
  await setPassword(memberId, next);
  return { ok: true };
}

/** Built-in mode: the password against the stored hash (the same hashing work when there is none). */
export async function memberHasPassword(memberId: string, password: string): Promise<boolean> {
  const [row] = await asService((tx) =>
    tx.query<{ encrypted_password: string | null }>("select encrypted_password from auth.users where id = $1", [
      memberId,
    ]),
  );
  return verifyPassword(password, row?.encrypted_password ?? null);
}

async function setPassword(memberId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await asService((tx) =>
    tx.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [memberId, hash]),
  );
}
