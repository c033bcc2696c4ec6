import { describe, expect, it } from "vitest";
import { collections } from "@/registry/resources/collections";
import { asMember } from "@/lib/db";
import { keysetPage } from "@/lib/domain/pagination";
import { recordColumns, toRecord } from "@/lib/domain/record";
import { jsonText } from "@/lib/http/json-text";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

// A list page's JSON is written by the database and sent as it is (lib/domain/pagination.ts).
describe("a list page rendered by the database", () => {
  it("is the JSON the records would give, in the registry's field order, and data parses only when read", async () => {
    const owner = await makeMember();
    for (const name of ["one", "two", "three"]) {
      expect((await api("POST", "/collections", { token: owner.token, body: { name, type: "music" } })).status).toBe(201);
    }
    const page = await asMember(owner.id, (tx) =>
      keysetPage<Record<string, unknown>>(
        tx,
        { from: collections.table, where: ["t.owner_id = $1"], params: [owner.id] },
        { limit: 2 },
        recordColumns(collections),
      ),
    );
    const text = jsonText(page);
    expect(text.startsWith('{"data":[{"id":')).toBe(true);
    const sent = JSON.parse(text) as { data: Record<string, unknown>[]; has_more: boolean; next_cursor: string };
    expect(Object.keys(sent)).toEqual(["data", "has_more", "next_cursor"]);
    expect(sent.data.map((r) => r.name)).toEqual(["three", "two"]);
    expect(sent.data.map((r) => Object.keys(r))).toEqual([Object.keys(collections.fields), Object.keys(collections.fields)]);
    // The same page as objects (what every other surface reads), and as the JS record would be.
    expect(JSON.parse(JSON.stringify(page))).toEqual(sent);
    expect(page.data.map((r) => toRecord(collections, r))).toEqual(sent.data);
    expect(sent.has_more).toBe(true);

    // The REST answer is that text, and its cursor leads to the last record.
    const first = await api("GET", "/collections?limit=2", { token: owner.token });
    expect(first.body).toEqual(sent);
    const rest = await api("GET", `/collections?limit=2&after=${sent.next_cursor}`, { token: owner.token });
    expect(rest.body.data.map((r: { name: string }) => r.name)).toEqual(["one"]);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("renders an empty page as data: []", async () => {
    const owner = await makeMember();
    const empty = await api("GET", "/todos", { token: owner.token });
    expect(empty.body).toEqual({ data: [], has_more: false, next_cursor: null });
  });
});
