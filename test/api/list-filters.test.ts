import { describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import type { FilterSpec, ResourceSpec } from "@/registry/define";
import { resources } from "@/registry/index";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { validCreateBody } from "../support/resource-fixtures";

/**
 * One test per list filter the registry declares, generated from its declared SQL kind: each
 * makes a row the filter must show and a row it must hide, then lists through the API. A filter
 * whose SQL were missing or wrong would list both (or neither) and fail here.
 */
type Row = Record<string, unknown> & { id: string };

async function create(resource: ResourceSpec, owner: TestMember, extra: Record<string, unknown> = {}): Promise<Row> {
  const body = { ...(await validCreateBody(resource, owner)), ...extra };
  const made = await api("POST", `/${resource.name}`, { token: owner.token, body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
}

async function list(resource: ResourceSpec, who: TestMember, query: Record<string, string>): Promise<Row[]> {
  const answer = await api("GET", `/${resource.name}?${new URLSearchParams({ ...query, limit: "200" })}`, {
    token: who.token,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

const ids = (rows: Row[]) => rows.map((row) => row.id);
const enumValues = (spec: { schema: unknown } | undefined) =>
  (spec?.schema as { options?: string[] } | undefined)?.options ?? [];

/** Rows the filter (with `query`) must list and must not list, as `viewer` sees them. */
interface Scenario {
  viewer: TestMember;
  query: Record<string, string>;
  shown: Row;
  hidden: Row;
  /** What every listed row must satisfy. */
  holds: (row: Row) => boolean;
}

async function scenario(resource: ResourceSpec, name: string, filter: FilterSpec): Promise<Scenario> {
  const [ada, bob] = [await makeMember(), await makeMember()];
  const sql = filter.sql;
  switch (sql.kind) {
    case "equals": {
      const [a, b] = enumValues(filter);
      if (a && b) {
        const shown = await create(resource, ada, { [sql.column]: a });
        const hidden = await create(resource, ada, { [sql.column]: b });
        return { viewer: ada, query: { [name]: a }, shown, hidden, holds: (row) => row[sql.column] === a };
      }
      // A column the service sets (an owner): rows of two members.
      const shown = await create(resource, ada);
      const hidden = await create(resource, bob);
      const value = String(shown[sql.column]);
      return { viewer: bob, query: { [name]: value }, shown, hidden, holds: (row) => row[sql.column] === value };
    }
    case "instead": {
      if (sql.othersOnly) {
        const { column, equals } = sql.othersOnly;
        const other = enumValues(resource.fields[column]).find((value) => value !== equals);
        const shown = await create(resource, ada, { [column]: equals });
        const hidden = await create(resource, ada, { [column]: other });
        const value = String(shown[sql.column]);
        return {
          viewer: bob,
          query: { [name]: value },
          shown,
          hidden,
          holds: (row) => row[sql.column] === value && row[column] === equals,
        };
      }
      const shown = await create(resource, ada);
      const hidden = await create(resource, ada);
      const value = String(shown[sql.column]);
      return { viewer: ada, query: { [name]: value }, shown, hidden, holds: (row) => row[sql.column] === value };
    }
    case "counterpart": {
      const [mine, theirs] = resource.list?.rows === "either" ? resource.list.columns : ["", ""];
      const shown = await create(resource, ada);
      const hidden = await create(resource, ada);
      const other = String(shown[theirs]);
      const between = (row: Row) =>
        (row[mine] === ada.id && row[theirs] === other) || (row[mine] === other && row[theirs] === ada.id);
      return { viewer: ada, query: { [name]: other }, shown, hidden, holds: between };
    }
    case "side": {
      // The first value's column holds the viewer in `shown`; the second's in `hidden`.
      const [first, second] = Object.keys(sql.columns);
      const otherColumn = sql.columns[second ?? ""] ?? "";
      const viewer = await makeMember();
      const shown = await create(resource, viewer);
      const hidden = await create(resource, ada, { [otherColumn]: viewer.id });
      const column = sql.columns[first ?? ""] ?? "";
      return { viewer, query: { [name]: first ?? "" }, shown, hidden, holds: (row) => row[column] === viewer.id };
    }
  }
}

describe("list filters, generated from the registry", () => {
  for (const resource of resources) {
    for (const [name, filter] of Object.entries(resource.filters ?? {})) {
      it(`${resource.name}?${name}= (${filter.sql.kind}) lists what it declares and nothing else`, async () => {
        const { viewer, query, shown, hidden, holds } = await scenario(resource, name, filter);
        const rows = await list(resource, viewer, query);
        expect(ids(rows)).toContain(shown.id);
        expect(ids(rows)).not.toContain(hidden.id);
        for (const row of rows) expect(holds(row), JSON.stringify(row)).toBe(true);
      });
    }
  }

  it("every list declares its rows, and every declared column exists in the resource's table", async () => {
    for (const resource of resources) {
      const lists = resource.verbs.includes("list") && !resource.singleton;
      expect(Boolean(resource.list), resource.name).toBe(lists);
      const columns = [
        ...(resource.list?.rows === "own" ? [resource.list.column] : []),
        ...(resource.list?.rows === "either" ? resource.list.columns : []),
        ...Object.values(resource.filters ?? {}).flatMap(({ sql }) =>
          sql.kind === "equals" || sql.kind === "instead"
            ? [sql.column, ...(sql.kind === "instead" && sql.othersOnly ? [sql.othersOnly.column] : [])]
            : sql.kind === "side"
              ? Object.values(sql.columns)
              : [],
        ),
      ];
      const [schema, table] = resource.table.split(".");
      const present = await asService((tx) =>
        tx.query<{ name: string }>(
          "select column_name as name from information_schema.columns where table_schema = $1 and table_name = $2",
          [schema, table],
        ),
      );
      for (const column of columns)
        expect(
          present.map((c) => c.name),
          `${resource.name}.${column}`,
        ).toContain(column);
    }
  });
});
