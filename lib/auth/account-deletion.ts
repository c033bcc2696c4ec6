import { asService } from "../db/index.ts";

/**
 * Deletes a member and, by cascade, everything that is theirs: profile, collections, items,
 * todos, goals, streaks and check-ins, messages sent and received, follows both ways, blocks,
 * channels, tokens, sessions, idempotency keys and upload rows (whose storage objects a trigger
 * queues for purging in the same transaction). Shared catalog entries stay: they name no member.
 * The one place that removes the member row, so moving members to another table changes one line.
 */
export async function deleteAccount(memberId: string): Promise<boolean> {
  return asService(async (tx) => {
    const rows = await tx.query("delete from app_private.members where id = $1 returning id", [memberId]);
    return rows.length > 0;
  });
}
