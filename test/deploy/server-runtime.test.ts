import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { EMBEDDED_DATABASE_NODE_FLAGS, SERVER_ENV, SERVER_NODE_FLAGS } from "@/scripts/server-runtime";

const read = (file: string) => fs.readFileSync(file, "utf8");
const envPrefix = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);

// The Docker image's side is in dockerfile.test.ts, which reads the run stage.
describe("the production server runs with the same Node settings wherever it starts", () => {
  it("npm start sets them before Node starts (a malloc variable is read once, at process start)", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe([...envPrefix, "node", ...SERVER_NODE_FLAGS, "scripts/start.ts"].join(" "));
  });

  it("Node accepts the flags (a misspelt one would stop the server at start)", () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, "-e", "process.stdout.write('ok')"], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("ok");
  });

  it("the server and the test workers, which open PGlite, run without wasm code GC (the V8 abort)", () => {
    expect(SERVER_NODE_FLAGS).toEqual(expect.arrayContaining([...EMBEDDED_DATABASE_NODE_FLAGS]));
    // This file runs in one of vitest's workers: vitest.config.ts's execArgv reached it.
    expect(process.execArgv).toEqual(expect.arrayContaining([...EMBEDDED_DATABASE_NODE_FLAGS]));
  });
});
