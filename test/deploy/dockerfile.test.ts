import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { storageConfig } from "@/lib/domain/uploads/config";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "@/scripts/server-runtime";

/** The container's own files, read as the engine reads them (no engine runs in the tests). */
const ROOT = process.cwd();
const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
const runStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
const healthcheck = JSON.parse(/^HEALTHCHECK .*?CMD (\[.+\])$/m.exec(runStage)?.[1] ?? "[]") as string[];

/** Runs the probe as the engine would, with the container's HOST and PORT; answers its exit code. */
function probe(env: Record<string, string>): Promise<number | null> {
  const [command, ...args] = healthcheck;
  expect(command).toBe("node");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? "", ...env } as Record<string, string> as NodeJS.ProcessEnv,
      stdio: "ignore",
    });
    child.on("exit", resolve);
  });
}

let servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

/** A stand-in for server.ts bound where HOST says, answering /api/v1/health with `status`. */
async function serve(host: string, status = 200): Promise<number> {
  const server = http.createServer((request, response) => {
    response.writeHead(request.url === "/api/v1/health" ? status : 404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

describe("the image's health probe", () => {
  it("reaches a server bound to a non-loopback HOST (127.0.0.2 stands in: not 127.0.0.1)", async () => {
    const port = await serve("127.0.0.2");
    expect(await probe({ HOST: "127.0.0.2", PORT: String(port) })).toBe(0);
  });

  it("uses loopback when the server binds every interface, and fails on an unhealthy answer", async () => {
    const port = await serve("0.0.0.0");
    expect(await probe({ HOST: "0.0.0.0", PORT: String(port) })).toBe(0);
    expect(await probe({ PORT: String(port) })).toBe(0);
    const sick = await serve("127.0.0.1", 503);
    expect(await probe({ HOST: "0.0.0.0", PORT: String(sick) })).toBe(1);
  });

  it("is the same in compose.yaml, for OCI-format images that drop HEALTHCHECK", () => {
    const compose = fs.readFileSync(path.join(ROOT, "compose.yaml"), "utf8");
    const test = JSON.parse(/^\s+test: (\[.+\])$/m.exec(compose)?.[1] ?? "[]") as string[];
    expect(test).toEqual(["CMD", ...healthcheck]);
    expect(dockerfile).toMatch(/^HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 /m);
    expect(compose).toMatch(/interval: 30s\n\s+timeout: 5s\n\s+start_period: 40s\n\s+retries: 3\n/);
  });
});

describe("the image's files", () => {
  it("sets the server's Node variables and starts server.ts with its flags (scripts/server-runtime.ts)", () => {
    const env = [...runStage.matchAll(/^ENV (.+)$/gm)].flatMap((line) => (line[1] ?? "").split(/\s+/));
    expect(env).toEqual(expect.arrayContaining(Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`)));
    const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(runStage)?.[1] ?? "[]");
    expect(cmd).toEqual(["node", ...SERVER_NODE_FLAGS, "server.ts"]);
  });

  it("has the local driver's default uploads folder, owned by node before the stage switches to node", () => {
    const workdir = /^WORKDIR (\S+)$/m.exec(runStage)?.[1] ?? "";
    const cwd = process.cwd;
    process.cwd = () => workdir;
    let dir: string;
    try {
      const config = storageConfig({ UPLOAD_SIGNING_SECRET: "x".repeat(32) } as unknown as NodeJS.ProcessEnv);
      dir = config.driver === "local" ? config.dir : "";
    } finally {
      process.cwd = cwd;
    }
    expect(dir).toBe("/app/.data/uploads");
    const made = runStage.indexOf(`RUN mkdir -p ${dir} && chown -R node:node /app/.data`);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(runStage.indexOf("\nUSER node"));
  });

  it("fills Node's compile cache as node once the server's files are in place (scripts/warm-compile-cache.ts)", () => {
    const cache = /^ENV NODE_COMPILE_CACHE=(\S+)$/m.exec(runStage)?.[1];
    expect(cache).toBe("/app/.compile-cache");
    const made = runStage.indexOf(`RUN mkdir -p ${cache} && chown node:node ${cache}`);
    const user = runStage.indexOf("\nUSER node");
    const warmed = runStage.search(
      /^RUN --mount=type=bind,from=build,source=\/app\/scripts,target=(\S+) --mount=type=tmpfs,target=\/tmp\s+NODE_DISABLE_COMPILE_CACHE=1 node \1\/warm-compile-cache\.ts server\.ts lib\/db\/server-driver\.ts$/m,
    );
    expect(made).toBeGreaterThan(runStage.lastIndexOf("COPY --from=build"));
    expect(made).toBeLessThan(user);
    expect(warmed).toBeGreaterThan(user);
  });

  it("leaves local data, profiles and generated type stubs out of the build context", () => {
    const ignored = fs.readFileSync(path.join(ROOT, ".dockerignore"), "utf8").split("\n");
    for (const entry of [".data", ".next", ".next-profile", "next-env.d.ts", "node_modules", ".env", "reports"]) {
      expect(ignored, entry).toContain(entry);
    }
  });
});
