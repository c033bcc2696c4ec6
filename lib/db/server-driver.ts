import postgres from "postgres";
import type { Database, Transaction } from "./types.ts";

export async function openServer(url: string): Promise<Database> {
  // Supabase's pooler in transaction mode does not support prepared statements.
  const prepare = process.env.DATABASE_PREPARE !== "false";
  const sql = postgres(url, {
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    prepare,
    onnotice: () => {},
    // Callers pass JSON parameters as text (as PGlite takes them); without this, postgres.js
    // would JSON-encode that text a second time.
    types: {
      // Time parameters sent as text keep their microseconds (cursors depend on them); the
      // default turns them into a JS Date first, which keeps only milliseconds.
      date: {
        to: 1184,
        from: [1082, 1114, 1184],
        serialize: (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)),
        parse: (text: string) => new Date(text),
      },
      jsonText: {
        to: 3802,
        from: [3802, 114],
        serialize: (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value)),
        parse: (text: string) => JSON.parse(text),
      },
    },
  });
  const wrap = (q: postgres.Sql | postgres.TransactionSql): Transaction => ({
    async query<T extends object>(text: string, params: readonly unknown[] = []) {
      // `unsafe` does not prepare unless told, whatever the pool's option says: without this,
      // Postgres parsed and planned every statement on every request (issue 14).
      const rows = await q.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare });
      return rows as unknown as T[];
    },
    async exec(text: string) {
      await q.unsafe(text).simple();
    },
  });
  return {
    kind: "server",
    query: wrap(sql).query,
    transaction: async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
      // Not sql.begin, which waits for BEGIN's answer before fn sends anything: on a reserved
      // connection, BEGIN leaves in the same write as fn's first statements, one round trip less
      // per transaction (statements on one connection run in the order they were sent).
      const connection = await sql.reserve();
      try {
        // postgres.js sends a query only once it is awaited or executed: BEGIN must go out now,
        // before fn's statements, or they would run outside the transaction (and its settings).
        const begin = connection.unsafe("begin").execute();
        const [, result] = await Promise.all([begin, fn(wrap(connection))]);
        await connection.unsafe("commit");
        return result;
      } catch (error) {
        await connection.unsafe("rollback").catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    listen: async (channel, onMessage, onListening) => {
      await sql.listen(channel, onMessage, onListening);
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
