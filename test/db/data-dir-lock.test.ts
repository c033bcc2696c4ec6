// test-files: embedded database only (it opens PGlite folders of its own; scripts/test-files.ts)
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CLI_ARGS, CLI_NODE } from "../support/cli-command";
import { openPglite } from "@/lib/db/pglite-driver";

const run = promisify(execFile);

describe("the embedded data folder", () => {
  it("refuses a second process with a clear message and stays usable", { timeout: 90_000 }, async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pds-lock-")), "db");
    const db = await openPglite(dir);
    try {
      await db.query("create table marker (n int)");
      await db.query("insert into marker values (1)");
      const second = await run(
        CLI_NODE,
        [...CLI_ARGS, "member", "create", "--email", "x@example.test", "--password", "pw"],
        { env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: dir } },
      ).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`is in use by process ${process.pid}`);
      expect(await db.query("select n from marker")).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
    // Released on close: the folder opens again with its data intact.
    const reopened = await openPglite(dir);
    expect(await reopened.query("select n from marker")).toEqual([{ n: 1 }]);
    await reopened.close();
  });

  it("takes over a lock left by a process that is gone", { timeout: 90_000 }, async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pds-lock-")), "db");
    fs.writeFileSync(`${dir}.lock`, "999999999");
    const db = await openPglite(dir);
    expect(fs.readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await db.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});
