import { expect } from "vitest";
import { api } from "./api";
import type { TestMember } from "./factories";
import { sqlAsService } from "./store";

/** Today plus `days` in a time zone, by the store's clock (the clock check-ins use). */
export async function dayOffset(timezone: string, days = 0): Promise<string> {
  const [row] = await sqlAsService<{ d: string }>("select ((now() at time zone $1)::date + $2::int)::text as d", [
    timezone,
    days,
  ]);
  return row?.d ?? "";
}

export async function makeStreak(owner: TestMember, timezone?: string): Promise<string> {
  const body = timezone ? { name: "Run", timezone } : { name: "Run" };
  const created = await api("POST", "/streaks", { token: owner.token, body });
  expect(created.status).toBe(201);
  return created.body.id;
}

export const checkIn = (owner: TestMember, id: string, body: Record<string, unknown> = {}) =>
  api("POST", `/streaks/${id}/check-in`, { token: owner.token, body });
