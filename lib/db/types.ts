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
  /**
   * A write's last statement: the transaction commits right after it (nothing is committed when it
   * fails). On the server the COMMIT leaves in the same write, one round trip less per request;
   * both drivers refuse any statement after it, and a failed COMMIT is the transaction's error.
   */
  queryCommit<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** Thrown for a statement sent after queryLast or queryCommit ended the transaction. */
export const ENDED = "This transaction ended with its last statement (queryLast or queryCommit).";

/**
 * The same transaction for a step that has more to run after it (a step of a larger handler, a
 * create whose idempotent response is stored after it): its last statement does not end it.
 */
export function continuing(tx: Queryable): Queryable {
  return queryOnly((sql, params) => tx.query(sql, params));
}

/** A Queryable whose every statement runs as `query` (recorders, explainers, continuing steps). */
export function queryOnly(query: Queryable["query"]): Queryable {
  return { query, queryLast: query, queryCommit: query };
}

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

/**
 * Who writes in a member transaction and through which surface, carried in its claims: a personal
 * access token, an OAuth grant, the member's own browser session, or the service (operators, upkeep).
 */
export interface Actor {
  kind: "token" | "oauth" | "session" | "service";
  /** The token's, grant's or session's id; none for the service. */
  id?: string;
  surface: "rest" | "invoke" | "mcp" | "page";
}
