// test-files: embedded database only (it opens PGlite folders of its own; scripts/test-files.ts)
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "@/lib/db/pglite-driver";
import type { Database } from "@/lib/db/types";

const run = promisify(execFile);

/** How many times a 5-ms interval fired while `work` ran: 0 means the event loop was held. */
async function ticksDuring(work: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return ticks;
}

// The embedded database runs on a worker thread by default (lib/db/pglite-driver.ts).
describe.each(["worker", "main"] as const)("PGlite on the %s thread", (thread) => {
  let db: Database;
  beforeAll(async () => {
    const before = process.env.PGLITE_THREAD;
    process.env.PGLITE_THREAD = thread;
    try {
      db = await openPglite("memory://");
    } finally {
      process.env.PGLITE_THREAD = before;
    }
    await db.transaction((tx) =>
      tx.exec("create table t (n int constraint t_n_positive check (n > 0), constraint t_n_unique unique (n))"),
    );
  }, 60_000);
  afterAll(() => db.close());

  it(
    thread === "worker"
      ? "leaves the event loop free while a statement runs"
      : "holds the event loop while a statement runs",
    async () => {
      const ticks = await ticksDuring(() => db.query("select pg_sleep(0.3)"));
      if (thread === "worker") expect(ticks).toBeGreaterThan(20);
      else expect(ticks).toBe(0);
    },
  );

  it("answers json and jsonb values as PGlite parses them, in and out of a transaction", async () => {
    const sql = `select '"text"'::jsonb as s, 'null'::json as n, null::jsonb as missing, '[1,{"a":2}]'::json as j,
                        jsonb_build_object('at', '2026-11-24T06:00:00.123456Z'::timestamptz) as o`;
    const expected = {
      s: "text",
      n: null,
      missing: null,
      j: [1, { a: 2 }],
      o: { at: "2026-11-24T06:00:00.123456+00:00" },
    };
    expect(await db.query(sql)).toEqual([expected]);
    expect(await db.transaction((tx) => tx.queryLast(sql))).toEqual([expected]);
  });

  it("hands the store's error over with its fields", async () => {
    await db.query("insert into t values (1)");
    const duplicate = db.transaction((tx) => tx.queryCommit("insert into t values (1)"));
    await expect(duplicate).rejects.toMatchObject({
      code: "23505",
      constraint: "t_n_unique",
      detail: "Key (n)=(1) already exists.",
    });
    await expect(db.query("insert into t values (-1)")).rejects.toMatchObject({
      code: "23514",
      constraint: "t_n_positive",
    });
    expect(await db.query("select n from t")).toEqual([{ n: 1 }]);
  });

  it("keeps a transaction's writes only when it commits", async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t values (2)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await db.transaction((tx) => tx.queryCommit("insert into t values (3)"));
    expect(await db.query("select n from t order by n")).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("runs transactions one at a time, each seeing the one before", async () => {
    const bump = () =>
      db.transaction(async (tx) => {
        const [row] = await tx.query<{ n: number }>("select max(n) as n from t");
        return tx.queryCommit("insert into t values ($1)", [(row?.n ?? 0) + 1]);
      });
    await Promise.all(Array.from({ length: 10 }, bump));
    expect(await db.query("select count(*)::int as c, max(n) as n from t")).toEqual([{ c: 12, n: 13 }]);
  });
});

describe("a script on the embedded database", () => {
  it("exits when it is done, with the database still open", { timeout: 60_000 }, async () => {
    const script = [
      `import { openPglite } from ${JSON.stringify(path.join(process.cwd(), "lib/db/pglite-driver.ts"))};`,
      "const db = await openPglite('memory://');",
      "console.log(JSON.stringify(await db.query('select 41 + 1 as n')));",
    ].join("\n");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pds-script-")), "script.mjs");
    fs.writeFileSync(file, script);
    const node = path.join(process.cwd(), "node_modules", ".bin", "node");
    const { stdout } = await run(node, [file], { timeout: 50_000, env: { ...process.env, PGLITE_THREAD: "" } });
    expect(JSON.parse(stdout)).toEqual([{ n: 42 }]);
  });
});
