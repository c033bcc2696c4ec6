import { describe, expect, it } from "vitest";
import { asMember } from "@/lib/db";
import { memberResources } from "@/registry/member-resources";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember } from "../support/factories";
import {
  expectHiddenFromIntruder,
  expectNoInsertAsAnother,
  insertableAlone,
  privateByDefault,
  privateRowsOf,
} from "../support/isolation";

/**
 * The wall that cannot be forgotten: the same checks as the API tests, but straight in SQL as
 * role `authenticated`, the way any client that bypassed our code would arrive. Which resources
 * hold private rows is derived from the registry (test/support/isolation.ts).
 */
const OWNED = privateByDefault(memberResources);
const rowsOf = (owner: Parameters<typeof privateRowsOf>[0]) => privateRowsOf(owner, OWNED, memberResources);

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

  it("derives the resources with private rows from the registry", () => {
    // At least the spec's private ones; a new resource with private rows joins without an edit here.
    expect(OWNED.map((resource) => resource.name)).toEqual(
      expect.arrayContaining(["collections", "items", "todos", "goals", "streaks"]),
    );
  });

  it.each(
    OWNED.map((resource) => [resource.name, resource] as const),
  )("another member can neither read, change nor delete private %s", async (_name, resource) => {
    const owner = await makeMember();
    const intruder = await makeMember();
    const ids = await rowsOf(owner);
    await expectHiddenFromIntruder(resource, owner, intruder, ids[resource.name] as string);
  });

  it.each(
    insertableAlone(OWNED).map((resource) => [resource.name, resource] as const),
  )("nobody can create %s as another member", async (_name, resource) => {
    // owner_id is not even in the insert grant: the store refuses before any policy runs.
    await expectNoInsertAsAnother(resource, await makeMember(), await makeMember());
  });

  it("refuses an item placed into another member's collection", async () => {
    const owner = await makeMember();
    const intruder = await makeMember();
    const ids = await rowsOf(owner);
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
    await rowsOf(member);
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
    const ids = await rowsOf(owner);
    for (const { name } of OWNED) {
      const list = await api("GET", `/${name}`, { token: intruder.token });
      expect(list.body.data.map((row: { id: string }) => row.id)).not.toContain(ids[name]);
    }
    const theirs = await api("GET", `/collections?owner=${owner.id}`, { token: intruder.token });
    expect(theirs.body.data).toEqual([]);
  });
});
