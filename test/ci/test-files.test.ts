import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseTestFiles, selectedBy, startsProcesses, testFiles } from "../../scripts/test-files.ts";

/**
 * npm test runs a file on the Postgres server only if it can touch a database (scripts/test-files.ts),
 * so a wrong "no" would drop a file from the server pass without a word. Checked on a small tree
 * and on the repository's own tests.
 */
const tree = fs.mkdtempSync(path.join(os.tmpdir(), "pds-test-files-"));
afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
  fs.writeFileSync(path.join(tree, file), text);
}

describe("which test files can touch a database", () => {
  it("follows relative and @/ imports, static and dynamic, to a database client, Redis or a process", () => {
    write("lib/pure.ts", 'import { z } from "zod";\nexport const pure = 1;\n');
    write("lib/db/driver.ts", 'import postgres from "postgres";\nexport const open = () => postgres("");\n');
    write("lib/db/index.ts", 'export async function getDb() { return (await import("./driver.ts")).open(); }\n');
    write("lib/domain/thing.ts", 'import { getDb } from "../db/index.ts";\nexport type { getDb };\n');
    write("lib/limits.ts", 'import { createClient } from "redis";\nexport { createClient };\n');
    write("lib/cycle-a.ts", 'import "./cycle-b.ts";\n');
    write("lib/cycle-b.ts", 'import "./cycle-a.ts";\nimport { spawn } from "node:child_process";\n');
    write("test/support/store.ts", 'export * from "@/lib/domain/thing";\n');
    write("test/a/pure.test.ts", 'import { pure } from "@/lib/pure";\nimport { expect } from "vitest";\n');
    write("test/a/through-support.test.ts", 'import { getDb } from "../support/store";\n');
    write("test/a/redis.test.ts", 'import { createClient } from "@/lib/limits";\n');
    write("test/a/cycle.test.ts", 'import "@/lib/cycle-a";\n');
    write("test/a/env.test.ts", "const onServer = Boolean(process.env.DATABASE_URL);\n");
    write("test/a/pglite.test.ts", 'const { PGlite } = await import("@electric-sql/pglite");\n');
    write("test/a/not-a-test.ts", 'import postgres from "postgres";\n');

    const files = testFiles(tree);
    expect(files).toEqual([
      "test/a/cycle.test.ts",
      "test/a/env.test.ts",
      "test/a/pglite.test.ts",
      "test/a/pure.test.ts",
      "test/a/redis.test.ts",
      "test/a/through-support.test.ts",
    ]);
    expect(databaseTestFiles(files, tree)).toEqual(files.filter((file) => file !== "test/a/pure.test.ts"));
    // A new file is classified as it is written, with no list to update.
    write("test/b/new.test.ts", 'import { pure } from "@/lib/pure";\n');
    expect(databaseTestFiles(testFiles(tree), tree)).not.toContain("test/b/new.test.ts");
  });

  it("finds the files that start processes, themselves or through test helpers, not through lib/ (started first)", () => {
    write("lib/pglite-thread.ts", 'import { Worker } from "node:worker_threads";\nexport { Worker };\n');
    write("test/support/child.ts", 'import { spawn } from "node:child_process";\nexport { spawn };\n');
    write("test/support/through.ts", 'export * from "./child";\n');
    write("test/c/direct.test.ts", 'import { execFile } from "node:child_process";\n');
    write("test/c/helper.test.ts", 'import { spawn } from "../support/through";\n');
    write("test/c/lib-only.test.ts", 'import { Worker } from "@/lib/pglite-thread";\n');
    write("test/c/plain.test.ts", 'import { pure } from "@/lib/pure";\n');
    const spawns = startsProcesses(tree);
    expect(["direct", "helper", "lib-only", "plain"].filter((name) => spawns(`test/c/${name}.test.ts`))).toEqual([
      "direct",
      "helper",
    ]);
    // On the repository: the CLI and the process-killing tests are among them, a parser's is not.
    const repo = startsProcesses();
    expect(repo("test/cli/cli.test.ts") && repo("test/webhooks/server-kill.test.ts")).toBe(true);
    expect(testFiles().filter(repo).length).toBeLessThan(testFiles().length / 4);
  });

  it("leaves a file marked embedded-only out of the server pass, unless it can reach a server client", () => {
    const mark = "// test-files: embedded database only (why)\n";
    write("lib/db/pglite.ts", 'import { PGlite } from "@electric-sql/pglite";\nexport { PGlite };\n');
    write("test/d/embedded.test.ts", `${mark}import { PGlite } from "@/lib/db/pglite";\n`);
    write("test/d/unmarked.test.ts", 'import { PGlite } from "@/lib/db/pglite";\n');
    expect(databaseTestFiles(["test/d/embedded.test.ts", "test/d/unmarked.test.ts"], tree)).toEqual([
      "test/d/unmarked.test.ts",
    ]);
    write("test/d/wrongly-marked.test.ts", `${mark}import { getDb } from "@/lib/db/index.ts";\n`);
    expect(() => databaseTestFiles(["test/d/wrongly-marked.test.ts"], tree)).toThrow(/imports a server client/);
  });

  it("leaves a file that makes both stores itself out of the server pass, if it sets both", () => {
    const mark = "// test-files: both stores in one pass (why)\n";
    write(
      "test/e/both.test.ts",
      `${mark}import postgres from "postgres";\nconst env = ["PGLITE_DIR", "DATABASE_URL"];\n`,
    );
    write("test/e/unmarked.test.ts", 'import postgres from "postgres";\n');
    expect(databaseTestFiles(["test/e/both.test.ts", "test/e/unmarked.test.ts"], tree)).toEqual([
      "test/e/unmarked.test.ts",
    ]);
    write("test/e/one-store.test.ts", `${mark}import postgres from "postgres";\nconst env = ["PGLITE_DIR"];\n`);
    expect(() => databaseTestFiles(["test/e/one-store.test.ts"], tree)).toThrow(
      /does not set PGLITE_DIR and DATABASE_URL/,
    );
    // On the repository: the server-kill test starts its servers on both stores in every pass.
    expect(databaseTestFiles(["test/webhooks/server-kill.test.ts"])).toEqual([]);
  });

  it("selects files as vitest's filters do", () => {
    const files = ["test/a/one.test.ts", "test/a/two.test.ts", "test/b/one.test.ts"];
    expect(selectedBy(files, [], tree)).toEqual(files);
    expect(selectedBy(files, ["test/a/"], tree)).toEqual(["test/a/one.test.ts", "test/a/two.test.ts"]);
    expect(selectedBy(files, ["./test/b/one.test.ts", path.join(tree, "test/a/two.test.ts")], tree)).toEqual([
      "test/a/two.test.ts",
      "test/b/one.test.ts",
    ]);
  });

  it("counts every repository test that uses the database helpers or opens a store", () => {
    const files = testFiles();
    const database = new Set(databaseTestFiles(files));
    const helpers =
      /support\/(?:api|factories|store|fresh-database|http-server|serve-rest-process)\b|@\/lib\/db(?:\/index)?["']|getDb\(/;
    const bothStores = /^\/\/ test-files: both stores in one pass\b/m;
    const usingHelpers = files.filter((file) => {
      const text = fs.readFileSync(file, "utf8");
      return helpers.test(text) && !bothStores.test(text);
    });
    expect(usingHelpers.length).toBeGreaterThan(50);
    expect(usingHelpers.filter((file) => !database.has(file))).toEqual([]);
    // And the server pass is not everything: pure files (parsers, signing, formats) run once.
    expect(files.length - database.size).toBeGreaterThan(5);
  });
});
