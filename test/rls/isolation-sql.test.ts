import { describe, expect, it } from "vitest";
import { asMember } from "@/lib/db";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";

/**
 * The wall that cannot be forgotten: the same checks as the API tests, but straight in SQL as
 * role `authenticated`, the way any client that bypassed our code would arrive.
 */
async function privateRowsOf(owner: TestMember) {
  const token = owner.token;
  const collection = (await api("POST", "/collections", { token, body: { name: "secret", type: "books" } })).body;
  const song = await makeCatalogEntry();
  const item = (await api("POST", "/items", { token, body: { collection_id: collection.id, song_id: song } })).body;
  const todo = (await api("POST", "/todos", { token, body: { title: "secret" } })).body;
  const goal = (await api("POST", "/goals", { token, body: { title: "secret", target_value: 3 } })).body;
  const streak = (await api("POST", "/streaks", { token, body: { name: "secret" } })).body;
  return { collections: collection.id, items: item.id, todos: todo.id, goals: goal.id, streaks: streak.id };
}

const OWNED = ["collections", "items", "todos", "goals", "streaks"] as const;

describe("row-level security, in SQL as role authenticated", () => {
  it("runs member transactions as authenticated, not as the table owner", async () => {
    const member = await makeMember();
    const [who] = await asMember(member.id, (tx) =>
      tx.query<{ role: string; uid: string; bypass: boolean }>(
        "select current_user as role, auth.uid()::text as uid, (select rolbypassrls from pg_roles where rolname = current_user) as bypass",
      ),
    );
    expect(who).toEqual({ role: "authenticated", uid: member.id, bypass: false });
  });

  it.each(OWNED)("another member can neither read, change nor delete private %s", async (table) => {
    const owner = await makeMember();
    const intruder = await makeMember();
    const ids = await privateRowsOf(owner);
    const id = ids[table];
    await asMember(intruder.id, async (tx) => {
      expect(await tx.query(`select 1 from public.${table} where id = $1`, [id])).toEqual([]);
      expect(await tx.query(`select 1 from public.${table} where owner_id = $1`, [owner.id])).toEqual([]);
      expect(await tx.query(`delete from public.${table} where id = $1 returning id`, [id])).toEqual([]);
    });
    const column =
      table === "items" ? "note" : table === "streaks" ? "name" : table === "collections" ? "name" : "title";
    const changed = await asMember(intruder.id, (tx) =>
      tx.query(`update public.${table} set ${column} = 'pwned' where id = $1 returning id`, [id]),
    );
    expect(changed).toEqual([]);
    const [still] = await asMember(owner.id, (tx) =>
      tx.query<Record<string, string>>(`select ${column} from public.${table} where id = $1`, [id]),
    );
    expect(still?.[column]).not.toBe("pwned");
  });

  it.each(OWNED.filter((t) => t !== "items"))("nobody can create %s as another member", async (table) => {
    const victim = await makeMember();
    const intruder = await makeMember();
    const values: Record<string, string> = {
      collections: "(owner_id, name, type) values ($1, 'x', 'music')",
      todos: "(owner_id, title) values ($1, 'x')",
      goals: "(owner_id, title, target_value) values ($1, 'x', 1)",
      streaks: "(owner_id, name) values ($1, 'x')",
    };
    // owner_id is not even in the insert grant: the store refuses before any policy runs.
    await expect(
      asMember(intruder.id, (tx) => tx.query(`insert into public.${table} ${values[table]}`, [victim.id])),
    ).rejects.toMatchObject({ code: "42501" });
  });

  it("refuses an item placed into another member's collection", async () => {
    const owner = await makeMember();
    const intruder = await makeMember();
    const ids = await privateRowsOf(owner);
    const song = await makeCatalogEntry();
    await expect(
      asMember(intruder.id, (tx) =>
        tx.query("insert into public.items (collection_id, song_id) values ($1, $2)", [ids.collections, song]),
      ),
    ).rejects.toMatchObject({ code: "42501", message: expect.stringContaining("row-level security") });
  });

  it("hides credentials and tokens from members entirely", async () => {
    const member = await makeMember();
    for (const table of ["auth.users", "app_private.access_tokens"]) {
      await expect(asMember(member.id, (tx) => tx.query(`select * from ${table}`))).rejects.toMatchObject({
        code: "42501",
      });
    }
  });

  it("refuses a member's own plan change and a change to the catalog", async () => {
    const member = await makeMember();
    await expect(
      asMember(member.id, (tx) => tx.query("update public.profiles set plan = 'pro' where id = $1", [member.id])),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(
      asMember(member.id, (tx) => tx.query("insert into public.catalog_entries (domain, title) values ('music', 'x')")),
    ).rejects.toMatchObject({ code: "42501" });
  });

  it("shows nothing to a transaction without claims", async () => {
    const member = await makeMember();
    await privateRowsOf(member);
    const { getDb } = await import("@/lib/db");
    const db = await getDb();
    const rows = await db.transaction(async (tx) => {
      await tx.query("select set_config('role', 'authenticated', true)");
      return tx.query("select id from public.todos");
    });
    expect(rows).toEqual([]);
  });
});

describe("row-level security, through the API", () => {
  it("keeps every private row of A out of B's lists", async () => {
    const owner = await makeMember();
    const intruder = await makeMember();
    const ids = await privateRowsOf(owner);
    for (const table of OWNED) {
      const list = await api("GET", `/${table}`, { token: intruder.token });
      expect(list.body.data.map((row: { id: string }) => row.id)).not.toContain(ids[table]);
    }
    const theirs = await api("GET", `/collections?owner=${owner.id}`, { token: intruder.token });
    expect(theirs.body.data).toEqual([]);
  });
});
