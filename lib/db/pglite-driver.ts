import { setting } from "../config/env.ts";
import fs from "node:fs";
import { lockDataDir } from "./data-dir-lock.ts";
import type { EngineRequest } from "./pglite-engine.ts";
import { inProcess, onWorker, type Transport } from "./pglite-transport.ts";
import { type Database, ENDED, type Transaction } from "./types.ts";

/**
 * The embedded database. By default it runs on a worker thread (pglite-worker.ts): a statement in
 * wasm no longer holds the event loop, so the main thread serves HTTP while Postgres computes, on
 * another core (issue 14). PGLITE_THREAD=main keeps it in process (the bench's comparison, and a
 * fallback where worker threads are not available). Either way the same requests reach the same
 * engine (pglite-engine.ts), and one process holds the data folder (data-dir-lock.ts).
 */
export async function openPglite(dir: string): Promise<Database> {
  const inMemory = dir.startsWith("memory://");
  if (!inMemory) fs.mkdirSync(dir, { recursive: true }); // the lock lives beside it; PGlite creates no parents
  const release = inMemory ? () => {} : lockDataDir(dir);
  const statements = setting("PGLITE_STATEMENTS");
  try {
    const transport =
      setting("PGLITE_THREAD") === "main"
        ? await inProcess(dir, { statements, jsonAsText: false })
        : await onWorker(dir, { statements, jsonAsText: true });
    return database(transport, release);
  } catch (error) {
    release();
    throw error;
  }
}

function database({ call, onNotify, stop }: Transport, release: () => void): Database {
  const listeners = new Map<string, (payload: string) => void>();
  onNotify((channel, payload) => listeners.get(channel)?.(payload));
  const query = <T extends object>(sql: string, params: readonly unknown[] = []) =>
    call({ op: "query", sql, params }) as Promise<T[]>;
  let transactions = 0;
  return {
    kind: "pglite",
    query,
    queryLast: query,
    queryCommit: query,
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const tx = ++transactions;
      let sent = false;
      // The request that ends the transaction, answered once it has committed or rolled back.
      let ending: Promise<unknown> | undefined;
      const send = (request: EngineRequest) => {
        sent = true;
        return call(request);
      };
      const statement = (end?: "commit" | "rollback") =>
        function run<R extends object>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
          if (ending) return Promise.reject(new Error(ENDED));
          const rows = send({ op: "query", sql, params, tx, end }) as Promise<R[]>;
          if (end) ending = rows;
          return rows;
        };
      // queryLast and queryCommit end it the way the server driver does (ROLLBACK or COMMIT, no
      // statement after it), so a handler that breaks the rule fails on both databases alike.
      const handle: Transaction = {
        query: statement(),
        queryLast: statement("rollback"),
        queryCommit: statement("commit"),
        async exec(sql) {
          if (ending) throw new Error(ENDED);
          await send({ op: "exec", sql, tx });
        },
      };
      const end = (commit: boolean) => (sent ? call({ op: "end", tx, commit }) : Promise.resolve());
      try {
        const result = await fn(handle);
        await (ending ?? end(true)); // a failed COMMIT is the transaction's error
        return result;
      } catch (error) {
        await (ending ?? end(false)).catch(() => {});
        throw error;
      }
    },
    // One process holds the folder, so its own notifications are all there is to hear.
    listen: async (channel, onMessage, onListening) => {
      listeners.set(channel, onMessage);
      await call({ op: "listen", channel });
      onListening();
    },
    close: async () => {
      try {
        await call({ op: "close" });
      } finally {
        await stop();
        release();
      }
    },
  };
}
