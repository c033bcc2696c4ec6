import { asService } from "../db/index.ts";
import { deleteAuthUser } from "./auth-users.ts";

/**
 * Deletes a member and, by cascade, everything that is theirs: every row of every resource that
 * names the member (each member column references the profile with on delete cascade, which
 * test/account/deletion.test.ts checks for every resource of the registry), blocks, tokens,
 * sessions, idempotency keys and upload rows (whose storage objects a trigger queues for purging
 * in the same transaction). Shared catalog entries stay: they name no member.
 * Through deleteAuthUser: GoTrue's admin API in Supabase mode, else the auth.users row.
 */
export async function deleteAccount(memberId: string): Promise<boolean> {
  const [exists] = await asService((tx) => tx.query("select 1 from auth.users where id = $1", [memberId]));
  if (!exists) return false;
  await deleteAuthUser(memberId);
  return true;
}
