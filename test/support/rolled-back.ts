import { getDb, type Transaction } from "@/lib/db";

/**
 * Runs `work` in a transaction of the test database that is rolled back at the end, and returns
 * what it returned: what it writes (a large catalog, a member's thousands of rows, their
 * statistics) is seen by no other test.
 */
export async function rolledBack<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  const db = await getDb();
  const rollback = new Error("roll back");
  let result: { value: T } | undefined;
  await db
    .transaction(async (tx) => {
      result = { value: await work(tx) };
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  if (!result) throw new Error("the rolled-back work returned nothing");
  return result.value;
}
