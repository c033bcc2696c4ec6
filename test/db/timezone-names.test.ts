import { describe, expect, it } from "vitest";
import { makeMember } from "../support/factories";
import { rolledBack } from "../support/rolled-back";

/**
 * A time zone is checked against app_private.timezone_names, the names of pg_timezone_names read once
 * by its migration (20261128224500), and against pg_timezone_names itself only when the table lacks
 * the name: the same names are accepted as when every check read the whole time zone database. A name
 * the table holds is converted to once, so one the server's time zone database has dropped is refused.
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

  it("accepts a name the table lacks when the database knows it, and refuses one it does not or no longer knows", async () => {
    const member = await makeMember();
    const outcome = await rolledBack(async (tx) => {
      await tx.query("delete from app_private.timezone_names where name = 'Asia/Tokyo'");
      // A name the table holds but the server's time zone database no longer knows (one dropped by a later
      // time zone database): refused, not stored.
      await tx.query("insert into app_private.timezone_names (name) values ('Mars/Olympus_Mons')");
      await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: member.id, role: "authenticated" }),
      ]);
      const [made] = await tx.query<{ timezone: string }>(
        "insert into public.streaks (name, timezone) values ('Read', 'Asia/Tokyo') returning timezone",
      );
      // A refused insert's reason, the transaction taken back to before it.
      const refusal = async (timezone: string) => {
        await tx.query("savepoint refused");
        const reason = await tx
          .query("insert into public.streaks (name, timezone) values ('Read', $1)", [timezone])
          .then(
            () => null,
            (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
          );
        await tx.query("rollback to savepoint refused");
        return reason;
      };
      const refused = await refusal("Europe/Atlantis");
      const dropped = await refusal("Mars/Olympus_Mons");
      return { made: made?.timezone, refused, dropped };
    });
    expect(outcome.made).toBe("Asia/Tokyo");
    expect(outcome.refused).toEqual({
      code: "22023",
      message: expect.stringContaining('unknown timezone "Europe/Atlantis"'),
    });
    expect(outcome.dropped).toEqual({ code: "22023", message: expect.stringContaining('"Mars/Olympus_Mons"') });
  });
});
