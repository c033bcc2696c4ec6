import { asService } from "../../db/index.ts";
import { storageDriver } from "./driver.ts";

/**
 * Deletes queued storage objects (account deletion queues them) and their queue rows. A failure
 * stays queued with its error and is retried by the next purge; rows another purge is working on
 * are skipped. Answers how many objects were removed.
 */
export async function purgeQueuedUploads(limit = 100): Promise<number> {
  const driver = storageDriver();
  return asService(async (tx) => {
    const rows = await tx.query<{ key: string }>(
      "select key from app_private.upload_purges order by queued_at limit $1 for update skip locked",
      [limit],
    );
    let removed = 0;
    for (const { key } of rows) {
      try {
        await driver.deleteObject(key);
        await tx.query("delete from app_private.upload_purges where key = $1", [key]);
        removed++;
      } catch (error) {
        await tx.query("update app_private.upload_purges set attempts = attempts + 1, last_error = $2 where key = $1", [
          key,
          String((error as Error).message ?? error).slice(0, 500),
        ]);
      }
    }
    return removed;
  });
}
