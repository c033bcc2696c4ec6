import fs from "node:fs";
import { PGlite, type Transaction as PGliteTransaction, type Results, types } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { preparedStatements } from "./pglite-statements.ts";

/**
 * What the driver asks of the embedded database, as data, so the same requests travel to a worker
 * thread (pglite-worker.ts) or are handled in process. A statement naming a transaction that is not
 * open opens it. `end` on a statement ends its transaction right after it (queryLast, queryCommit);
 * an `end` request ends it otherwise. The request that ends a transaction is answered once the
 * transaction has committed or rolled back, so a failed COMMIT is its answer.
 */
export type EngineRequest =
  | { op: "query"; sql: string; params: readonly unknown[]; tx?: number; end?: "commit" | "rollback" }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  | { op: "close" };

export interface EngineOptions {
  /** `unprepared`: PGlite's own query() for every statement (the bench's comparison, a fallback). */
  statements: "prepared" | "unprepared";
  /**
   * Answer a statement as `TextRows`: json and jsonb values left as their text, for the receiving
   * thread to parse. Cloning a string between threads costs a fraction of cloning the object
   * graph JSON.parse makes of it (an 18 KB page: 2 µs against 77 µs, and the parse moves too).
   */
  jsonAsText: boolean;
}

/** Rows whose `json` columns hold JSON text (EngineOptions.jsonAsText). */
export interface TextRows {
  rows: Record<string, unknown>[];
  json: string[];
}

const JSON_TYPES = new Set<number>([types.JSON, types.JSONB]);

export interface Engine {
  handle(request: EngineRequest): Promise<unknown>;
}

const ANALYZE_EVERY_MS = 10 * 60 * 1000;

interface Pending {
  request: EngineRequest;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The requests of one open transaction, in the order they were sent. */
class Inbox {
  private items: Pending[] = [];
  private waiting: ((item: Pending) => void) | undefined;
  private failure: { error: unknown } | undefined;

  push(item: Pending): void {
    if (this.failure) item.reject(this.failure.error);
    else if (this.waiting) {
      const take = this.waiting;
      this.waiting = undefined;
      take(item);
    } else this.items.push(item);
  }

  /** The transaction could not run (BEGIN failed): what waits, and what comes, gets the error. */
  fail(error: unknown): void {
    this.failure = { error };
    for (const item of this.items.splice(0)) item.reject(error);
  }

  next(): Promise<Pending> {
    const item = this.items.shift();
    if (item) return Promise.resolve(item);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}

export async function openEngine(
  dir: string,
  options: EngineOptions,
  notify: (channel: string, payload: string) => void,
): Promise<Engine> {
  if (!dir.startsWith("memory://")) fs.mkdirSync(dir, { recursive: true }); // PGlite does not create parent folders
  const db = new PGlite(dir, { extensions: { citext, pg_trgm, unaccent } });
  await db.waitReady;
  // Its pages live in memory, so a random read costs what a sequential one does. At the default
  // (4, for spinning disks) the planner sorted a member's rows rather than walk the (owner,
  // created_at, id) index: 10-25 ms against 0.4 ms for a page of a 1,000-row member (npm run bench).
  // PGlite is one session for its whole life, so a session setting holds for good.
  await db.exec("set random_page_cost = 1.1");
  // PGlite has no autovacuum, so nothing would ever refresh the planner's statistics as tables
  // grow. A periodic ANALYZE stands in for it (PGlite runs it between requests, not beside them).
  const analyze = setInterval(() => {
    db.exec("analyze").catch((error: unknown) => console.error("periodic analyze failed", error));
  }, ANALYZE_EVERY_MS);
  analyze.unref();

  const text = (value: string) => value;
  const parsers: Record<number, (value: string) => unknown> = options.jsonAsText
    ? { [types.JSON]: text, [types.JSONB]: text }
    : {};
  const answer = ({ rows, fields }: Results<Record<string, unknown>>): unknown =>
    options.jsonAsText
      ? ({ rows, json: fields.filter((f) => JSON_TYPES.has(f.dataTypeID)).map((f) => f.name) } satisfies TextRows)
      : rows;
  // Inside a transaction (which holds PGlite's lock), statements run prepared: pglite-statements.ts.
  const prepared = preparedStatements(db, { ...db.parsers, ...parsers });
  const statement = async (tx: PGliteTransaction, sql: string, params: readonly unknown[]) =>
    answer(
      options.statements === "unprepared"
        ? await tx.query<Record<string, unknown>>(sql, params as unknown[], { parsers })
        : await prepared.query<Record<string, unknown>>(sql, params),
    );
  const inboxes = new Map<number, Inbox>();

  /**
   * Opens transaction `id` and serves its requests as they come until one ends it. That one is
   * answered once PGlite has committed (when the function returns) or rolled back (when it throws),
   * so a failed COMMIT is its answer.
   */
  const open = (id: number): Inbox => {
    const inbox = new Inbox();
    inboxes.set(id, inbox);
    let last: Pending | undefined;
    db.transaction(async (tx) => {
      for (;;) {
        const item = await inbox.next();
        const { request, resolve, reject } = item;
        if (request.op === "end") {
          last = item;
          if (!request.commit) await tx.rollback();
          return undefined;
        }
        try {
          if (request.op === "exec") {
            prepared.forget(); // DDL (migrations): statements parse again
            await tx.exec(request.sql);
            resolve(undefined);
          } else if (request.op === "query") {
            if (request.end) last = item;
            const rows = await statement(tx, request.sql, request.params);
            if (request.end === "rollback") await tx.rollback();
            if (request.end) return rows;
            resolve(rows);
          }
        } catch (error) {
          // A failed last statement: nothing more will come, and throwing rolls back. Otherwise
          // the caller learns of the failure and ends the transaction itself.
          if (last === item) throw error;
          reject(error);
        }
      }
    })
      .then(
        (value) => last?.resolve(value),
        (error: unknown) => (last ? last.reject(error) : inbox.fail(error)),
      )
      .finally(() => inboxes.delete(id));
    return inbox;
  };

  return {
    handle(request) {
      switch (request.op) {
        case "query":
        case "exec":
        case "end": {
          const tx = request.tx;
          if (tx === undefined && request.op === "exec") {
            prepared.forget();
            return db.exec(request.sql).then(() => undefined);
          }
          if (tx === undefined && request.op === "query") {
            return db
              .query<Record<string, unknown>>(request.sql, request.params as unknown[], { parsers })
              .then(answer);
          }
          if (tx === undefined) return Promise.reject(new Error("end without a transaction"));
          const inbox = inboxes.get(tx) ?? open(tx);
          return new Promise((resolve, reject) => inbox.push({ request, resolve, reject }));
        }
        case "listen":
          return db.listen(request.channel, (payload) => notify(request.channel, payload)).then(() => undefined);
        case "close":
          clearInterval(analyze);
          return db.close();
      }
    },
  };
}
