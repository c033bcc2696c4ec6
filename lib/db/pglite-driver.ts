import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { lockDataDir } from "./data-dir-lock.ts";
import type { Database, Transaction } from "./types.ts";

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
  } catch (error) {
    release();
    throw error;
  }
  const wrap = (q: Pick<PGlite, "query" | "exec">): Transaction => ({
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: "pglite",
    query: wrap(db).query,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: async () => {
      await db.close();
      release();
    },
  };
}
