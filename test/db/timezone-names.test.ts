import { describe, expect, it } from "vitest";
import { makeMember } from "../support/factories";
import { rolledBack } from "../support/rolled-back";

/**
 * A time zone is checked against app_private.timezone_names, the names of pg_timezone_names read once
 * by its migration (20261128224500), and against pg_timezone_names itself only when the table lacks
 * the name: the same names are accepted as when every check read the whole time zone database.
 */
describe("time zone names", () => {
  it("holds every name the database knows", async () => {
    const missing = await rolledBack((tx) =>
      tx.query<{ name: string }>(
        `select name from pg_catalog.pg_timezone_names
         except select name from app_private.timezone_names`,
      ),
    );
    expect(missing).toEqual([]);
  });

  it("accepts a name the table lacks when the database knows it, and refuses one it does not", async () => {
    const member = await makeMember();
    const outcome = await rolledBack(async (tx) => {
      await tx.query("delete from app_private.timezone_names where name = 'Asia/Tokyo'");
      await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: member.id, role: "authenticated" }),
      ]);
      const [made] = await tx.query<{ timezone: string }>(
        "insert into public.streaks (name, timezone) values ('Read', 'Asia/Tokyo') returning timezone",
      );
      await tx.query("savepoint unknown");
      const refused = await tx
        .query("insert into public.streaks (name, timezone) values ('Read', 'Europe/Atlantis')")
        .then(
          () => null,
          (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
        );
      await tx.query("rollback to savepoint unknown");
      return { made: made?.timezone, refused };
    });
    expect(outcome.made).toBe("Asia/Tokyo");
    expect(outcome.refused).toEqual({
      code: "22023",
      message: expect.stringContaining('unknown timezone "Europe/Atlantis"'),
    });
  });
});
