import { expect } from "vitest";
import { asMember, asService } from "@/lib/db";
import type { ApiResponse } from "./api";

/** The Postgres error a statement raised, or undefined when it succeeded. */
export async function sqlErrorAsMember(
  memberId: string,
  sql: string,
  params: readonly unknown[] = [],
): Promise<{ code: string; message: string } | undefined> {
  try {
    await asMember(memberId, (tx) => tx.query(sql, params));
    return undefined;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code !== "string") throw error;
    return { code, message: String(message) };
  }
}

/** Rows a statement answers when run as the member (role authenticated, RLS on). */
export const sqlAsMember = <T extends object = Record<string, unknown>>(
  memberId: string,
  sql: string,
  params: readonly unknown[] = [],
) => asMember(memberId, (tx) => tx.query<T>(sql, params));

/** Rows as the service (the migration owner): for arranging facts no member could write. */
export const sqlAsService = <T extends object = Record<string, unknown>>(
  sql: string,
  params: readonly unknown[] = [],
) => asService((tx) => tx.query<T>(sql, params));

/** A refusal carrying the store's reason: status, problem code, SQLSTATE and a message fragment. */
export function expectStoreRefusal(
  response: ApiResponse,
  expected: { status: number; code: string; sqlstate: string; message: RegExp },
): void {
  expect(response.status, JSON.stringify(response.body)).toBe(expected.status);
  expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/);
  expect(response.body.code).toBe(expected.code);
  expect(response.body.reason?.sqlstate).toBe(expected.sqlstate);
  expect(response.body.reason?.message).toMatch(expected.message);
}
