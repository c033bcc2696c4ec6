import { describe, expect, it } from "vitest";
import { asMember } from "@/lib/db";
import { api } from "../support/api";
import { makeMember, tokenFor } from "../support/factories";

async function seedTodos(memberId: string, count: number): Promise<string[]> {
  // One statement: every row shares created_at, so the walk must break ties on id.
  const rows = await asMember(memberId, (tx) =>
    tx.query<{ id: string }>(
      "insert into public.todos (title) select 'todo ' || n from generate_series(1, $1::int) as n returning id",
      [count],
    ),
  );
  return rows.map((row) => row.id);
}

describe("cursor pagination", () => {
  it("walks 260 rows while others are inserted, losing and repeating none", async () => {
    const member = await makeMember();
    // Reads and writes on separate tokens: each stays inside its own rate-limit burst.
    const writer = await tokenFor(member.id, ["todos:write"]);
    const original = new Set(await seedTodos(member.id, 260));
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=20${after ? `&after=${after}` : ""}`;
      const [page] = await Promise.all([
        api("GET", `/todos${query}`, { token: member.token }),
        api("POST", "/todos", { token: writer, body: { title: `concurrent ${pages}` } }),
      ]);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(20);
      seen.push(...page.body.data.map((todo: { id: string }) => todo.id));
      if (page.body.has_more) expect(page.headers.get("link")).toMatch(/^<\/api\/v1\/todos\?limit=20&after=[^>]+>; rel="next"$/);
      after = page.body.next_cursor;
      pages++;
    } while (after && pages < 100);
    expect(new Set(seen).size).toBe(seen.length); // nothing repeated
    for (const id of original) expect(seen).toContain(id); // nothing lost
  });

  it("orders newest first and reports the last page", async () => {
    const member = await makeMember();
    const first = await api("POST", "/goals", { token: member.token, body: { title: "a", target_value: 1 } });
    const second = await api("POST", "/goals", { token: member.token, body: { title: "b", target_value: 1 } });
    const page1 = await api("GET", "/goals?limit=1", { token: member.token });
    expect(page1.body.data[0].id).toBe(second.body.id);
    expect(page1.body.has_more).toBe(true);
    const page2 = await api("GET", `/goals?limit=1&after=${page1.body.next_cursor}`, { token: member.token });
    expect(page2.body.data[0].id).toBe(first.body.id);
    expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(page2.headers.get("link")).toBeNull();
  });

  it("defaults to 50 per page", async () => {
    const member = await makeMember();
    await seedTodos(member.id, 51);
    const page = await api("GET", "/todos", { token: member.token });
    expect(page.body.data).toHaveLength(50);
    expect(page.body.has_more).toBe(true);
  });
});

describe("limit on the query string", () => {
  it("takes plain decimal digits only: 0x10, 1e2, +5, 5.0, an empty value and spaces are 422", async () => {
    const member = await makeMember();
    expect((await api("GET", "/todos?limit=16", { token: member.token })).status).toBe(200);
    for (const bad of ["0x10", "1e2", "%2B5", "5.0", "", "%205", "0b1", "Infinity", "-1", "0"]) {
      const response = await api("GET", `/todos?limit=${bad}`, { token: member.token });
      expect(response.status, `limit=${bad}`).toBe(422);
      expect(response.body.errors[0].pointer, bad).toBe("/limit");
    }
  });
});
