import type { Capability } from "../../registry/capabilities.ts";
import type { ToolInput, ToolName } from "../../registry/tool-inputs.ts";
import type { Scope } from "../../registry/scopes.ts";
import type { Actor, Queryable } from "../db/index.ts";

/** What a verb gets: who acts, inside which member transaction, with the validated input. */
export interface VerbContext<I = Record<string, unknown>> {
  memberId: string;
  /** The caller's scopes, already checked for the capability; a handler whose answer depends on them reads them. */
  scopes: ReadonlySet<Scope>;
  tx: Queryable;
  input: I;
  capability: Capability;
  /** What the handler's prepare step answered, outside any transaction (see Handler.prepare). */
  prepared?: unknown;
  /** Who calls, through which surface (undo takes back only the same credential's writes). */
  actor?: Actor;
}

/**
 * A handler answers its data; a Reply when the status (or headers) differ from the capability's
 * usual ones. Typed by its tool's input (registry/tool-inputs.ts) in lib/domain/handlers.ts.
 */
export type Handler<I = Record<string, unknown>> = ((ctx: VerbContext<I>) => Promise<unknown>) & {
  /**
   * Optional first phase that runs before the member transaction opens: slow I/O (upstream HTTP)
   * belongs here, because an open transaction holds a pooled connection, and on PGlite it blocks
   * every other request of the process.
   */
  prepare?: (ctx: Omit<VerbContext<I>, "tx" | "prepared">) => Promise<unknown>;
};

/** The handler of one tool, typed by that tool's validated input. */
export type ToolHandler<T extends ToolName> = Handler<ToolInput<T>>;

/** An answer whose status is not the capability's usual one (check-in: 200 for a day already recorded). */
export class Reply {
  readonly status: number;
  readonly data: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, data: unknown, headers: Readonly<Record<string, string>> = {}) {
    this.status = status;
    this.data = data;
    this.headers = headers;
  }
}
