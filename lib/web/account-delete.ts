import { deleteAccount } from "../auth/account-deletion.ts";
import { clearFailures, recordFailure, throttleKey, waitBeforeAttempt } from "../auth/sessions-throttle.ts";
import { asService } from "../db/index.ts";
import { purgeQueuedUploads } from "../domain/uploads/purge.ts";
import { authBackend } from "./auth-context.ts";

export type DeleteResult = { ok: true } | { ok: false; error: string };

/**
 * Deletes the signed-in member's account after the password is entered again (a session alone,
 * perhaps on a borrowed laptop, must not be enough). Wrong passwords count against the same
 * throttle as sign-in. Storage objects are purged after the commit; one that fails stays queued.
 */
export async function deleteAccountWithPassword(
  memberId: string,
  password: string,
  address: string,
): Promise<DeleteResult> {
  const [row] = await asService((tx) =>
    tx.query<{ email: string }>("select email::text as email from auth.users where id = $1", [memberId]),
  );
  if (!row) return { ok: false, error: "This account no longer exists." };
  const key = throttleKey(row.email, address);
  const wait = waitBeforeAttempt(key);
  if (wait > 0)
    return { ok: false, error: `Too many wrong passwords. Try again in ${Math.ceil(wait / 1000)} seconds.` };
  if (!(await authBackend().checkPassword({ id: memberId, email: row.email }, password))) {
    recordFailure(key);
    return { ok: false, error: "That is not your password; nothing was deleted." };
  }
  clearFailures(key);
  await deleteAccount(memberId);
  try {
    await purgeQueuedUploads();
  } catch (error) {
    // The rows are gone and the objects stay queued: the next purge removes them.
    console.error("upload purge after account deletion failed", error);
  }
  return { ok: true };
}
