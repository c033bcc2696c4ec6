import type { FilterSql, ResourceSpec } from "../../registry/define.ts";

/**
 * The WHERE clause of a list, generated from the resource's declared rows (`list`) and filters
 * (`filters[name].sql`): nothing about a list's meaning is written here by hand. Row-level
 * security still decides what is readable; this decides what a list shows. Column names come
 * from the registry only; values travel as parameters.
 */
export interface ListScope {
  where: string[];
  params: unknown[];
}

const column = (name: string) => `t."${name.replace(/"/g, '""')}"`;

export function buildListScope(resource: ResourceSpec, me: string, input: Record<string, unknown>): ListScope {
  const rows = resource.list;
  if (!rows) throw new Error(`${resource.name} declares no list rows`);
  const scope: ListScope = { where: [], params: [] };
  const param = (value: unknown) => {
    scope.params.push(value);
    return `$${scope.params.length}`;
  };
  // The member's own id as a sub-select, which the planner cannot read: planned with the id itself, a
  // member who owns most of a table (one person self-hosting) made a plan for that id look cheaper
  // than the prepared statement's generic one, and Postgres planned every list of theirs again
  // (test/rls/list-plan.test.ts). The index on the owner serves either way.
  const mine = () => `(select ${param(me)}::uuid)`;
  const given: { sql: FilterSql; value: unknown }[] = Object.entries(resource.filters ?? {}).flatMap(
    ([name, filter]) => (input[name] === undefined ? [] : [{ sql: filter.sql, value: input[name] }]),
  );
  // A filter that says which rows to start from replaces the default rows; the others narrow.
  const start = given.find((filter): filter is { sql: StartingSql; value: unknown } => filter.sql.kind !== "equals");
  if (start) scope.where.push(startingRows(start.sql, start.value, rows, me, param));
  else if (rows.rows === "own") scope.where.push(`${column(rows.column)} = ${mine()}`);
  else if (rows.rows === "either") {
    const m = mine();
    scope.where.push(`(${column(rows.columns[0])} = ${m} or ${column(rows.columns[1])} = ${m})`);
  }
  for (const { sql, value } of given) {
    if (sql.kind === "equals") scope.where.push(`${column(sql.column)} = ${param(value)}`);
  }
  return scope;
}

type StartingSql = Exclude<FilterSql, { kind: "equals" }>;

function startingRows(
  sql: StartingSql,
  value: unknown,
  rows: NonNullable<ResourceSpec["list"]>,
  me: string,
  param: (value: unknown) => string,
): string {
  switch (sql.kind) {
    case "instead": {
      const clause = `${column(sql.column)} = ${param(value)}::uuid`;
      if (!sql.othersOnly || value === me) return clause;
      return `${clause} and ${column(sql.othersOnly.column)} = ${param(sql.othersOnly.equals)}`;
    }
    case "counterpart": {
      if (rows.rows !== "either") throw new Error("a counterpart filter needs a list of rows: either");
      const [a, b] = rows.columns.map(column);
      const [m, v] = [param(me), param(value)];
      return `((${a} = ${m}::uuid and ${b} = ${v}::uuid) or (${a} = ${v}::uuid and ${b} = ${m}::uuid))`;
    }
    case "side": {
      const side = sql.columns[String(value)];
      if (!side) throw new Error(`no column for ${String(value)}`);
      return `${column(side)} = ${param(me)}::uuid`;
    }
  }
}
