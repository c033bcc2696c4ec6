import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "@/scripts/server-runtime";

const read = (file: string) => fs.readFileSync(file, "utf8");
const envPrefix = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);

describe("the production server runs with the same Node settings wherever it starts", () => {
  it("npm start sets them before Node starts (a malloc variable is read once, at process start)", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe([...envPrefix, "node", ...SERVER_NODE_FLAGS, "scripts/start.ts"].join(" "));
  });

  it("the Docker image's run stage sets the variables and starts server.ts with the flags", () => {
    const dockerfile = read("Dockerfile");
    const stage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    const env = [...stage.matchAll(/^ENV (.+)$/gm)].flatMap((line) => (line[1] ?? "").split(/\s+/));
    expect(env).toEqual(expect.arrayContaining(envPrefix));
    const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(stage)?.[1] ?? "[]");
    expect(cmd).toEqual(["node", ...SERVER_NODE_FLAGS, "server.ts"]);
  });

  it("Node accepts the flags (a misspelt one would stop the server at start)", () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, "-e", "process.stdout.write('ok')"], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("ok");
  });
});
