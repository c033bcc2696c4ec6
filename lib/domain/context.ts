import type { Capability } from "../../registry/capabilities.ts";
import type { Queryable } from "../db/index.ts";

/** What a verb gets: who acts, inside which member transaction, with the validated input. */
export interface VerbContext {
  memberId: string;
  tx: Queryable;
  input: Record<string, unknown>;
  capability: Capability;
  /** What the handler's prepare step answered, outside any transaction (see Handler.prepare). */
  prepared?: unknown;
}

/** A handler answers its data, or a status with data when it is not the capability's usual one. */
export type HandlerResult = { status: number; data: unknown; headers?: Record<string, string> };
export type Handler = ((ctx: VerbContext) => Promise<unknown>) & {
  /**
   * Optional first phase that runs before the member transaction opens: slow I/O (upstream HTTP)
   * belongs here, because an open transaction holds a pooled connection, and on PGlite it blocks
   * every other request of the process.
   */
  prepare?: (ctx: Omit<VerbContext, "tx" | "prepared">) => Promise<unknown>;
};

export const withStatus = (status: number, data: unknown, headers?: Record<string, string>): HandlerResult & {
  __status: true;
} => ({ status, data, headers, __status: true });

export function isHandlerResult(value: unknown): value is HandlerResult {
  return typeof value === "object" && value !== null && (value as { __status?: unknown }).__status === true;
}
