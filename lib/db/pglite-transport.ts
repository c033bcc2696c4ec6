import { Worker } from "node:worker_threads";
import type { EngineOptions, EngineRequest, TextRows } from "./pglite-engine.ts";

/**
 * How the driver (pglite-driver.ts) reaches the engine: in this thread, or on a worker thread
 * (pglite-worker.ts), where requests and answers cross as structured clones.
 */
export interface Transport {
  call: (request: EngineRequest) => Promise<unknown>;
  /** The handler for notifications (LISTEN), set once the driver is built. */
  onNotify: (handler: (channel: string, payload: string) => void) => void;
  stop: () => Promise<void>;
}

/** What the worker thread posts back: an answer by request id, a notification, or how it started. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; name: string; stack?: string; fields: Record<string, unknown> } }
  | { notify: string; payload: string }
  | { ready: true }
  | { failed: { message: string; stack?: string } };

export async function inProcess(dir: string, options: EngineOptions): Promise<Transport> {
  let handler = (_channel: string, _payload: string) => {};
  // Loaded only here: with the worker thread, PGlite's modules stay off the main thread.
  const { openEngine } = await import("./pglite-engine.ts");
  const engine = await openEngine(dir, options, (channel, payload) => handler(channel, payload));
  return {
    call: (request) => engine.handle(request),
    onNotify: (h) => {
      handler = h;
    },
    stop: async () => {},
  };
}

export async function onWorker(dir: string, options: EngineOptions): Promise<Transport> {
  const worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), { workerData: { dir, options } });
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: unknown) => void; query: boolean }
  >();
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
      if ("failed" in reply)
        return reject(Object.assign(new Error(reply.failed.message), { stack: reply.failed.stack }));
      if ("notify" in reply) return handler(reply.notify, reply.payload);
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      settle();
      if (!waiter) return;
      if (reply.ok) waiter.resolve(waiter.query ? parseJson(reply.value as TextRows) : reply.value);
      else
        waiter.reject(
          Object.assign(new Error(reply.error.message), reply.error.fields, {
            name: reply.error.name,
            stack: reply.error.stack,
          }),
        );
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
    for (const row of rows)
      for (const column of json) if (typeof row[column] === "string") row[column] = JSON.parse(row[column]);
  }
  return rows;
}
