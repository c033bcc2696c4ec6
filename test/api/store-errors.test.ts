import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { CONSTRAINT_EXCEPTIONS, constraintError, derivedConstraintError } from "@/lib/domain/store-errors";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

const NOBODY = "00000000-0000-4000-8000-000000000000";

describe("how the store's refusals reach the client", () => {
  it("answers 422 with the store's reason for a reference to a member who does not exist", async () => {
    const member = await makeMember();
    for (const [path, body] of [
      ["/follows", { followee_id: NOBODY }],
      ["/messages", { recipient_id: NOBODY, body: "hello?" }],
    ] as const) {
      const response = await api("POST", path, { token: member.token, body });
      expect(response.status, path).toBe(422);
      expect(response.body).toMatchObject({ code: "invalid_request", reason: { sqlstate: "23503" } });
      expect(response.body.reason.message).toMatch(/^insert or update on table .* violates foreign key constraint/);
    }
  });

  it("answers 409 with the store's reason for a unique rule", async () => {
    const member = await makeMember();
    const other = await makeMember();
    expect((await api("POST", "/follows", { token: member.token, body: { followee_id: other.id } })).status).toBe(201);
    const again = await api("POST", "/follows", { token: member.token, body: { followee_id: other.id } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "conflict", reason: { sqlstate: "23505" } });
  });
});

describe("the store rules' codes (derived from constraint names; supabase/constraint-errors.json holds the exceptions)", () => {
  it("has a code for every named constraint and unique index members' writes can hit, and no stale exception", async () => {
    const db = await getDb();
    const names = await db.query<{ name: string; table: string }>(`
      select c.conname as name, t.relname as table from pg_constraint c
      join pg_namespace n on n.oid = c.connamespace join pg_class t on t.oid = c.conrelid
      where n.nspname in ('public', 'app_private') and c.contype in ('c', 'u', 'f', 'x')
      union
      select i.relname, t.relname from pg_index x join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = i.relnamespace
      where n.nspname in ('public', 'app_private') and x.indisunique and not x.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
      order by 1`);
    const missing = names.filter(({ name, table }) => !constraintError(name, table)).map(({ name }) => name);
    expect(
      missing,
      "name these <table>_<column>_<check|key|fkey|…>, or add them to supabase/constraint-errors.json",
    ).toEqual([]);
    const inSchema = names.map((row) => row.name);
    expect(Object.keys(CONSTRAINT_EXCEPTIONS).filter((name) => !inSchema.includes(name))).toEqual([]);
  });

  it("lists only real exceptions: without its entry, each would get another answer from its name", async () => {
    const db = await getDb();
    for (const [name, listed] of Object.entries(CONSTRAINT_EXCEPTIONS)) {
      const [owner] = await db.query<{ table: string }>(
        `select t.relname as table from pg_constraint c join pg_class t on t.oid = c.conrelid where c.conname = $1
         union select t.relname from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
         where i.relname = $1`,
        [name],
      );
      const { why: _why, ...answer } = listed;
      expect(derivedConstraintError(name, owner?.table), name).not.toEqual(answer);
      expect(listed.why.length, name).toBeGreaterThan(0);
    }
  });

  it("names every multi-column check", async () => {
    // Postgres names a multi-column check "<table>_check": a name that says nothing, so name it.
    const generic = await (await getDb()).query<{ name: string }>(`
      select c.conname as name from pg_constraint c join pg_class t on t.oid = c.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname in ('public', 'app_private') and c.conname ~ ('^' || t.relname || '_check[0-9]*$')`);
    expect(generic).toEqual([]);
  });

  it("gives a taken handle the stable code handle_taken and the pointer /handle, beside the store's reason", async () => {
    const first = await makeMember();
    const second = await makeMember();
    const handle = `taken_${Date.now().toString(36)}`;
    expect((await api("PATCH", "/profile", { token: first.token, body: { handle } })).status).toBe(200);
    const clash = await api("PATCH", "/profile", { token: second.token, body: { handle } });
    expect(clash.status).toBe(409);
    expect(clash.body.reason).toMatchObject({ sqlstate: "23505", code: "handle_taken", pointer: "/handle" });
    expect(clash.body.reason.message).toMatch(/profiles_handle_key/);
    expect(clash.body.errors).toEqual([
      { pointer: "/handle", code: "handle_taken", message: clash.body.reason.message },
    ]);
  });

  it("names the rule for a reference to nobody and for following someone twice", async () => {
    const member = await makeMember();
    const other = await makeMember();
    const nobody = await api("POST", "/follows", { token: member.token, body: { followee_id: NOBODY } });
    expect(nobody.body.reason).toMatchObject({ code: "followee_id_not_found", pointer: "/followee_id" });
    await api("POST", "/follows", { token: member.token, body: { followee_id: other.id } });
    const twice = await api("POST", "/follows", { token: member.token, body: { followee_id: other.id } });
    expect(twice.body.reason).toMatchObject({ code: "already_following", pointer: "/followee_id" });
  });
});
