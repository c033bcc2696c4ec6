import { parentPort, workerData } from "node:worker_threads";
import { type EngineOptions, type EngineRequest, openEngine } from "./pglite-engine.ts";
import type { WorkerReply } from "./pglite-transport.ts";

/**
 * The embedded database on a thread of its own (pglite-driver.ts starts it): Postgres in wasm
 * computes here while the main thread goes on serving HTTP. Replies carry the request's id; a
 * store error travels as its own fields (code, detail, constraint, …), which structured cloning of
 * an Error would drop.
 */
const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread");
const { dir, options } = workerData as { dir: string; options: EngineOptions };

/** An error as plain data: its message and its own scalar fields (a store error's code, detail, …). */
function asData(error: unknown) {
  const e = error instanceof Error ? error : new Error(String(error));
  const fields = Object.fromEntries(
    Object.entries(e).filter(([, value]) => ["string", "number", "boolean"].includes(typeof value)),
  );
  return { message: e.message, name: e.name, stack: e.stack, fields };
}

function post(reply: WorkerReply): void {
  try {
    port?.postMessage(reply);
  } catch (error) {
    // A value that cannot be cloned still gets an answer, or its caller would wait forever.
    if ("id" in reply) port?.postMessage({ id: reply.id, ok: false, error: asData(error) } satisfies WorkerReply);
    else throw error;
  }
}

openEngine(dir, options, (notify, payload) => post({ notify, payload })).then(
  (engine) => {
    port.on("message", ({ id, request }: { id: number; request: EngineRequest }) => {
      engine.handle(request).then(
        (value) => post({ id, ok: true, value }),
        (error: unknown) => post({ id, ok: false, error: asData(error) }),
      );
    });
    post({ ready: true });
  },
  (error: unknown) => post({ failed: asData(error) }),
);
