import type { Capability } from "../../registry/capabilities.ts";
import type { Queryable } from "../db/index.ts";

/** What a verb gets: who acts, inside which member transaction, with the validated input. */
export interface VerbContext {
  memberId: string;
  tx: Queryable;
  input: Record<string, unknown>;
  capability: Capability;
}

/** A handler answers its data, or a status with data when it is not the capability's usual one. */
export type HandlerResult = { status: number; data: unknown; headers?: Record<string, string> };
export type Handler = (ctx: VerbContext) => Promise<unknown>;

export const withStatus = (status: number, data: unknown, headers?: Record<string, string>): HandlerResult & {
  __status: true;
} => ({ status, data, headers, __status: true });

export function isHandlerResult(value: unknown): value is HandlerResult {
  return typeof value === "object" && value !== null && (value as { __status?: unknown }).__status === true;
}
