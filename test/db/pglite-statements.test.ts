import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "@/lib/db/pglite-driver";
import type { Database } from "@/lib/db/types";

// Inside a transaction PGlite runs statements prepared once and kept (lib/db/pglite-statements.ts).
describe("PGlite's prepared statements", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite("memory://");
    await db.transaction((tx) => tx.exec("create table t (n int); insert into t values (1), (2)"));
  }, 60_000);
  afterAll(() => db.close());

  const all = () => db.transaction((tx) => tx.query("select * from t order by n"));

  it("types parameters and results as PGlite's query() does", async () => {
    const [row] = await db.transaction((tx) =>
      tx.query("select $1::int + 1 as n, $2::jsonb as j, $3::timestamptz as at, $4::text[] as a", [
        41,
        JSON.stringify({ a: [1] }),
        "2026-11-23T10:00:00.123456Z",
        ["x", "y"],
      ]),
    );
    expect(row).toEqual({ n: 42, j: { a: [1] }, at: new Date("2026-11-23T10:00:00.123Z"), a: ["x", "y"] });
    expect(await db.query("select $1::int + 1 as n", [41])).toEqual([{ n: 42 }]);
  });

  it("keeps statements in the order they were sent, as the server driver does", async () => {
    const order = await db.transaction(async (tx) => {
      const first = tx.query("select set_config('app.step', 'one', true)");
      const second = tx.query<{ step: string }>("select current_setting('app.step') as step");
      await first;
      return (await second)[0]?.step;
    });
    expect(order).toBe("one");
  });

  it("parses again after a schema change made through exec (migrations)", async () => {
    expect(await all()).toEqual([{ n: 1 }, { n: 2 }]);
    await db.transaction((tx) => tx.exec("alter table t add column label text default 'x'"));
    expect(await all()).toEqual([
      { n: 1, label: "x" },
      { n: 2, label: "x" },
    ]);
  });

  it("answers with the store's error and stays usable", async () => {
    await expect(db.transaction((tx) => tx.query("select n / 0 from t"))).rejects.toMatchObject({ code: "22012" });
    await expect(db.transaction((tx) => tx.query("select nope from t"))).rejects.toMatchObject({ code: "42703" });
    expect((await all()).length).toBe(2);
  });
});
