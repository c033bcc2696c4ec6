import { setting } from "../config/env.ts";
import postgres from "postgres";
import { type Database, ENDED, type Transaction } from "./types.ts";

export async function openServer(url: string): Promise<Database> {
  // Supabase's pooler in transaction mode does not support prepared statements.
  const prepare = setting("DATABASE_PREPARE");
  const sql = postgres(url, {
    max: setting("DATABASE_POOL_MAX"),
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
  const run = async <T extends object>(
    q: postgres.Sql | postgres.TransactionSql,
    text: string,
    params: readonly unknown[],
  ) =>
    // `unsafe` does not prepare unless told, whatever the pool's option says: without this,
    // Postgres parsed and planned every statement on every request (issue 14).
    // execute() queues the statement now: awaiting the query alone would queue it a microtask
    // later, behind a ROLLBACK that queryLast queues at once — a member's read would then run
    // after the transaction, outside its role and claims (test/domain/visibility.test.ts saw it).
    (await q.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare }).execute()) as unknown as T[];
  const query = <T extends object>(text: string, params: readonly unknown[] = []) => run<T>(sql, text, params);
  return {
    kind: "server",
    query,
    queryLast: query,
    queryCommit: query,
    transaction: async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
      // Not sql.begin, which waits for BEGIN's answer before fn sends anything: on a reserved
      // connection, BEGIN leaves in the same write as fn's first statements, one round trip less
      // per transaction (statements on one connection run in the order they were sent).
      const connection = await sql.reserve();
      let ended: Promise<unknown> | undefined;
      const endWith = <R extends object>(end: "commit" | "rollback", text: string, params: readonly unknown[]) => {
        if (ended) return Promise.reject(new Error(ENDED));
        const result = run<R>(connection, text, params);
        ended = connection.unsafe(end).execute();
        // Awaited below once fn is done (a failed COMMIT is the transaction's error); this only
        // keeps it from counting as unhandled should fn fail first.
        ended.catch(() => {});
        return result;
      };
      const tx: Transaction = {
        query: <R extends object>(text: string, params: readonly unknown[] = []) =>
          ended ? Promise.reject(new Error(ENDED)) : run<R>(connection, text, params),
        // Sent at once, the end joins the statement's write. queryLast ends a read with ROLLBACK (it
        // has nothing to commit, and a write passed there by mistake is never committed).
        queryLast: <R extends object>(text: string, params: readonly unknown[] = []) =>
          endWith<R>("rollback", text, params),
        queryCommit: <R extends object>(text: string, params: readonly unknown[] = []) =>
          endWith<R>("commit", text, params),
        async exec(text: string) {
          if (ended) throw new Error(ENDED);
          await connection.unsafe(text).simple();
        },
      };
      try {
        // postgres.js sends a query only once it is awaited or executed: BEGIN must go out now,
        // before fn's statements, or they would run outside the transaction (and its settings).
        const begin = connection.unsafe("begin").execute();
        const [, result] = await Promise.all([begin, fn(tx)]);
        await (ended ?? connection.unsafe("commit"));
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
