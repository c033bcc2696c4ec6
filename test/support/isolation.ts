import { expect } from "vitest";
import { asMember, asService } from "@/lib/db";
import type { ResourceSpec } from "@/registry/define";
import { memberColumns } from "@/registry/events";
import type { TestMember } from "./factories";
import { createRow } from "./resource-fixtures";

/**
 * The isolation checks of test/rls, over any list of resources, derived from the registry: which
 * resources hold private rows, how to make one, and which column an intruder would try to change.
 * The fixture eleventh resource (test/registry) runs the same checks.
 */

/**
 * A member's own rows that nobody else can read unless the row (or its parent) is made visible:
 * an own list whose filters never reach a row through another member's column (follows' "side"
 * shows a follow to the followee).
 */
export function privateByDefault(resources: readonly ResourceSpec[]): ResourceSpec[] {
  return resources.filter(
    (resource) =>
      !resource.singleton &&
      resource.list?.rows === "own" &&
      resource.list.column === "owner_id" &&
      resource.verbs.includes("create") &&
      !Object.values(resource.filters ?? {}).some((filter) => filter.sql.kind === "side"),
  );
}

/** One private row of each resource, made through the API; answers resource name → id. */
export async function privateRowsOf(
  owner: TestMember,
  owned: readonly ResourceSpec[],
  registry: readonly ResourceSpec[],
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const resource of owned) ids[resource.name] = await createRow(resource, owner, registry);
  return ids;
}

/** A column a member writes with free text: what an intruder's update would try to change. */
export function textColumn(resource: ResourceSpec): string {
  const found = Object.entries(resource.fields).find(
    ([, field]) => !field.readOnly && !field.references && !field.unique && field.schema.safeParse("pwned").success,
  );
  if (!found) throw new Error(`${resource.name} has no free-text field to try`);
  return found[0];
}

/** The table under its own name (the generic verbs may read a view, as streaks do). */
export const tableOf = (resource: ResourceSpec) => resource.eventSource?.table ?? resource.table;

/** Another member can neither read, change nor delete the owner's private row, in SQL as authenticated. */
export async function expectHiddenFromIntruder(
  resource: ResourceSpec,
  owner: TestMember,
  intruder: TestMember,
  id: string,
): Promise<void> {
  const table = tableOf(resource);
  const [member] = memberColumns(resource);
  await asMember(intruder.id, async (tx) => {
    expect(await tx.query(`select 1 from ${table} where id = $1`, [id])).toEqual([]);
    expect(await tx.query(`select 1 from ${table} where ${member} = $1`, [owner.id])).toEqual([]);
    expect(await tx.query(`delete from ${table} where id = $1 returning id`, [id])).toEqual([]);
  });
  const column = textColumn(resource);
  const changed = await asMember(intruder.id, (tx) =>
    tx.query(`update ${table} set ${column} = 'pwned' where id = $1 returning id`, [id]),
  );
  expect(changed).toEqual([]);
  const [still] = await asMember(owner.id, (tx) =>
    tx.query<Record<string, string>>(`select ${column} from ${table} where id = $1`, [id]),
  );
  expect(still?.[column]).not.toBe("pwned");
}

/** Resources a row can be inserted into straight from its own fields (no reference to make first). */
export const insertableAlone = (resources: readonly ResourceSpec[]) =>
  resources.filter((resource) => !Object.values(resource.fields).some((field) => field.required && field.references));

/** An insert naming another member as the owner is refused before any policy runs (42501). */
export async function expectNoInsertAsAnother(
  resource: ResourceSpec,
  victim: TestMember,
  intruder: TestMember,
): Promise<void> {
  const [member] = memberColumns(resource);
  const fields = Object.entries(resource.fields).filter(([, field]) => field.required && !field.readOnly);
  const columns = [member, ...fields.map(([name]) => name)];
  const values = [victim.id, ...fields.map(([, field]) => field.example)];
  const sql = `insert into ${tableOf(resource)} (${columns.join(", ")}) values (${columns.map((_, i) => `$${i + 1}`).join(", ")})`;
  await expect(asMember(intruder.id, (tx) => tx.query(sql, values))).rejects.toMatchObject({ code: "42501" });
}

/** Resources whose rows a fixture can make through the generic create (not singletons). */
export const creatable = (resources: readonly ResourceSpec[]) =>
  resources.filter((resource) => !resource.singleton && resource.verbs.includes("create"));

/** How many rows of the resource name the member in any of its member columns (as the service sees them). */
export async function rowsNaming(resource: ResourceSpec, memberId: string): Promise<number> {
  const where = memberColumns(resource)
    .map((column) => `${column} = $1`)
    .join(" or ");
  const [row] = await asService((tx) =>
    tx.query<{ n: number }>(`select count(*)::int as n from ${tableOf(resource)} where ${where}`, [memberId]),
  );
  return row?.n ?? -1;
}
