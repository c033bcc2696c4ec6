/** The one small interface both drivers implement; nothing above lib/db knows which is in use. */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * A read's one and last statement, in a transaction that wrote nothing: the transaction ends
   * with ROLLBACK (a read has nothing to commit; anything written before it is undone, so a handler
   * that writes first must not end with it). On the server the ROLLBACK leaves in the same write,
   * one round trip less per request; both drivers refuse any statement after it.
   */
  queryLast<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** Thrown for a statement sent after queryLast ended the transaction. */
export const ENDED = "This transaction ended with its last statement (queryLast).";

export interface Transaction extends Queryable {
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "server";
  /** Runs fn in one transaction; rolls back when fn throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls onMessage with the payload of each NOTIFY on the channel, from any instance on the same
   * database. onListening runs whenever listening (re)starts: notifications sent while it was down
   * are lost, so a listener drops what it derived from them.
   */
  listen(channel: string, onMessage: (payload: string) => void, onListening: () => void): Promise<void>;
}
