import fs from "node:fs";
import { PGlite, type Transaction as PGliteTransaction } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { lockDataDir } from "./data-dir-lock.ts";
import { preparedStatements } from "./pglite-statements.ts";
import { type Database, ENDED, type Transaction } from "./types.ts";

const ANALYZE_EVERY_MS = 10 * 60 * 1000;

export async function openPglite(dir: string): Promise<Database> {
  const inMemory = dir.startsWith("memory://");
  let release = () => {};
  if (!inMemory) {
    fs.mkdirSync(dir, { recursive: true }); // PGlite does not create parent folders
    release = lockDataDir(dir);
  }
  const db = new PGlite(dir, { extensions: { citext, pg_trgm, unaccent } });
  try {
    await db.waitReady;
    // Its pages live in memory, so a random read costs what a sequential one does. At the default
    // (4, for spinning disks) the planner sorted a member's rows rather than walk the (owner,
    // created_at, id) index: 10-25 ms against 0.4 ms for a page of a 1,000-row member (npm run bench).
    // PGlite is one session for its whole life, so a session setting holds for good.
    await db.exec("set random_page_cost = 1.1");
  } catch (error) {
    release();
    throw error;
  }
  const prepared = preparedStatements(db);
  const query = async <T extends object>(sql: string, params: readonly unknown[] = []) =>
    (await db.query<T>(sql, params as unknown[])).rows;
  // Inside a transaction (which holds PGlite's lock), statements run prepared: pglite-statements.ts.
  // queryLast and queryCommit end it the way the server driver does (ROLLBACK or COMMIT, no
  // statement after it), so a handler that breaks the rule fails on both databases alike.
  // PGLITE_STATEMENTS=unprepared: PGlite's own query() instead (the bench's comparison, a fallback).
  const unprepared = process.env.PGLITE_STATEMENTS === "unprepared";
  const inTransaction = (tx: PGliteTransaction): Transaction => {
    let ended = false;
    const query = async <T extends object>(sql: string, params: readonly unknown[] = []) => {
      if (ended) throw new Error(ENDED);
      return unprepared ? (await tx.query<T>(sql, params as unknown[])).rows : prepared.query<T>(sql, params);
    };
    return {
      query,
      async queryLast<T extends object>(sql: string, params: readonly unknown[] = []) {
        const result = query<T>(sql, params);
        ended = true;
        try {
          return await result;
        } finally {
          await tx.rollback();
        }
      },
      queryCommit<T extends object>(sql: string, params: readonly unknown[] = []) {
        // PGlite commits when the transaction's function returns, as it does for every transaction.
        const result = query<T>(sql, params);
        ended = true;
        return result;
      },
      async exec(sql: string) {
        if (ended) throw new Error(ENDED);
        prepared.forget();
        await tx.exec(sql);
      },
    };
  };
  // PGlite has no autovacuum, so nothing would ever refresh the planner's statistics as tables
  // grow. A periodic ANALYZE stands in for it (PGlite runs it between requests, not beside them).
  const analyze = setInterval(() => {
    db.exec("analyze").catch((error: unknown) => console.error("periodic analyze failed", error));
  }, ANALYZE_EVERY_MS);
  analyze.unref();
  return {
    kind: "pglite",
    query,
    queryLast: query,
    queryCommit: query,
    transaction: (fn) => db.transaction((tx) => fn(inTransaction(tx))),
    // One process holds the folder, so its own notifications are all there is to hear.
    listen: async (channel, onMessage, onListening) => {
      await db.listen(channel, onMessage);
      onListening();
    },
    close: async () => {
      clearInterval(analyze);
      await db.close();
      release();
    },
  };
}
