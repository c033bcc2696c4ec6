import { describe, expect, it, vi } from "vitest";
import { asMember } from "@/lib/db";
import { keysetPage } from "@/lib/http/pagination";
import { jsonResponse, serializedEnvelope } from "@/lib/http/respond";
import { answerToolCall } from "@/lib/surfaces/mcp-direct-call";
import { successResult } from "@/lib/surfaces/mcp-results";
import { mcpOutputSchema } from "@/lib/surfaces/tools";
import { capabilityByTool } from "@/registry/capabilities";
import { todos } from "@/registry/resources/todos";
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
      if (page.body.has_more)
        expect(page.headers.get("link")).toMatch(/^<\/api\/v1\/todos\?limit=20&after=[^>]+>; rel="next"$/);
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

/** The first page (two of a new member's three todos) as keysetPage answers it, still the database's text. */
async function firstTwoOfThree() {
  const member = await makeMember();
  await seedTodos(member.id, 3);
  const scope = { from: "public.todos", where: [], params: [] };
  const columns = ['t."id"', 't."title"'];
  return asMember(member.id, (tx) => keysetPage<{ title: string }>(tx, scope, { limit: 2 }, columns));
}

describe("a page's body, serialized by the database", () => {
  it("answers each record with the registry's fields in their order, as get answers it", async () => {
    const member = await makeMember();
    const created = await api("POST", "/todos", {
      token: member.token,
      body: { title: 'ünïcode ✓ "quoted"', due_at: "2026-12-01T10:00:00.123456Z", reminders: [60] },
    });
    expect(created.status).toBe(201);
    const page = await api("GET", "/todos", { token: member.token });
    expect(page.status).toBe(200);
    expect(Object.keys(page.body)).toEqual(["data", "has_more", "next_cursor"]);
    expect(Object.keys(page.body.data[0])).toEqual(Object.keys(todos.fields));
    const one = await api("GET", `/todos/${created.body.id}`, { token: member.token });
    expect(page.body.data[0]).toEqual(one.body);
  });

  it("is serialized again once its records were read, so a change to them is answered", async () => {
    const page = await firstTwoOfThree();
    // Untouched, the answer is the database's own text, never parsed on its way out.
    const parse = vi.spyOn(JSON, "parse");
    const text = await jsonResponse(200, page, "req").text();
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    const untouched = JSON.parse(text);
    expect(untouched).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expect(untouched.data).toHaveLength(2);
    const [first] = page.data;
    if (!first) throw new Error("empty page");
    first.title = "changed";
    page.has_more = false;
    expect(await jsonResponse(200, page, "req").json()).toMatchObject({
      data: [{ title: "changed" }, {}],
      has_more: false,
    });
    expect(JSON.parse(JSON.stringify({ result: page })).result.data[0].title).toBe("changed");
  });
});

describe("a page inside invoke's and MCP's answers", () => {
  it("keeps the database's text, and answers what the page holds", async () => {
    const page = await firstTwoOfThree();
    const list = capabilityByTool.get("todos_list");
    if (!list) throw new Error("no todos_list");
    mcpOutputSchema(list); // built once per capability, out of the span watched below
    const parse = vi.spyOn(JSON, "parse");
    // A member left undefined is left out, as JSON.stringify leaves it out.
    const envelope = serializedEnvelope({ ok: true, result: page, absent: undefined });
    const invokeText = await jsonResponse(200, envelope, "req").text();
    const mcpText = await answerToolCall(7, async () => successResult(list, page));
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    const expected = JSON.parse(JSON.stringify({ data: page.data, has_more: true, next_cursor: page.next_cursor }));
    expect(expected.data.map((todo: { title: string }) => todo.title)).toHaveLength(2);
    expect(JSON.parse(invokeText)).toEqual({ ok: true, result: expected });
    const mcp = JSON.parse(mcpText);
    expect(mcp).toMatchObject({ jsonrpc: "2.0", id: 7, result: { structuredContent: expected } });
    const text: string = mcp.result.content[0].text;
    expect(JSON.parse(text.split("\n")[2] ?? "")).toEqual(expected);
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
