import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { lockDataDir } from "./data-dir-lock.ts";
import { type EngineOptions, type EngineRequest, openEngine, type TextRows, type WorkerReply } from "./pglite-engine.ts";
import { type Database, ENDED, type Transaction } from "./types.ts";

type Call = (request: EngineRequest) => Promise<unknown>;

interface Transport {
  call: Call;
  /** The handler for notifications (LISTEN), set once the driver is built. */
  onNotify: (handler: (channel: string, payload: string) => void) => void;
  stop: () => Promise<void>;
}

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
  const statements = process.env.PGLITE_STATEMENTS === "unprepared" ? "unprepared" : "prepared";
  try {
    const transport =
      process.env.PGLITE_THREAD === "main"
        ? await inProcess(dir, { statements, jsonAsText: false })
        : await onWorker(dir, { statements, jsonAsText: true });
    return database(transport, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function inProcess(dir: string, options: EngineOptions): Promise<Transport> {
  let handler = (_channel: string, _payload: string) => {};
  const engine = await openEngine(dir, options, (channel, payload) => handler(channel, payload));
  return {
    call: (request) => engine.handle(request),
    onNotify: (h) => {
      handler = h;
    },
    stop: async () => {},
  };
}

async function onWorker(dir: string, options: EngineOptions): Promise<Transport> {
  const worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), { workerData: { dir, options } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void; query: boolean }>();
  let next = 0;
  let handler = (_channel: string, _payload: string) => {};
  let broken: Error | undefined;
  // The thread keeps the process alive only while an answer is awaited (a script that is done
  // exits without closing the database, as it did with PGlite in process).
  const settle = () => {
    if (pending.size === 0) worker.unref();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (reply: WorkerReply) => {
      if ("ready" in reply) return resolve();
      if ("failed" in reply) return reject(Object.assign(new Error(reply.failed.message), { stack: reply.failed.stack }));
      if ("notify" in reply) return handler(reply.notify, reply.payload);
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      settle();
      if (!waiter) return;
      if (reply.ok) waiter.resolve(waiter.query ? parseJson(reply.value as TextRows) : reply.value);
      else waiter.reject(Object.assign(new Error(reply.error.message), reply.error.fields, { name: reply.error.name, stack: reply.error.stack }));
    });
    const die = (error: Error) => {
      broken = error;
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    };
    worker.on("error", die);
    worker.on("exit", (code) => die(new Error(`the embedded database's thread exited (${code})`)));
  });
  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();
  return {
    call: (request) => {
      if (broken) return Promise.reject(broken);
      const id = ++next;
      worker.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, query: request.op === "query" });
        worker.postMessage({ id, request });
      });
    },
    onNotify: (h) => {
      handler = h;
    },
    stop: async () => {
      worker.removeAllListeners("exit");
      await worker.terminate();
    },
  };
}

/** Rows as the engine answers them over the thread: json values come as text (EngineOptions.jsonAsText). */
function parseJson({ rows, json }: TextRows): Record<string, unknown>[] {
  if (json.length) {
    for (const row of rows) for (const column of json) if (typeof row[column] === "string") row[column] = JSON.parse(row[column]);
  }
  return rows;
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
