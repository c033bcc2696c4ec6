import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../scripts/server-runtime";
import { pollHealth, scratchDatabaseOrSkip } from "./support";

/**
 * No Docker engine here, so this replays the Dockerfile's run stage by hand: it reads the
 * Dockerfile, performs its `COPY --from=build` lines from this build into an empty folder, sets its
 * ENV, and starts its CMD (`node server.ts`) there, against a fresh database on the Postgres server.
 * What it cannot check: the image build itself, the base image, and the `node` user.
 */
const ROOT = process.cwd();
const PORT = Number(process.env.E2E_PORT ?? 3200) + 50;

function runStage() {
  const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const stage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const copies = [...stage.matchAll(/^COPY --from=build (?:--chown=\S+ )?\/app\/(\S+) (\S+)$/gm)].map((m) => ({
    from: m[1] ?? "",
    to: m[2] ?? "",
  }));
  const env: Record<string, string> = {};
  for (const line of stage.matchAll(/^ENV (.+)$/gm)) {
    for (const pair of (line[1] ?? "").split(/\s+/)) {
      const [name, value] = pair.split("=");
      if (name && value !== undefined) env[name] = value;
    }
  }
  const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(stage)?.[1] ?? "[]") as string[];
  return { copies, env, cmd };
}

let server: ChildProcess | undefined;
let dropDatabase = async () => {};

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await dropDatabase();
});

test("the Dockerfile's run stage serves /api/v1/health against DATABASE_URL", async () => {
  test.setTimeout(120_000);
  const standalone = path.join(ROOT, ".next", "standalone", "server.ts");
  expect(
    fs.existsSync(standalone),
    "npm run e2e builds with NEXT_OUTPUT=standalone and traces server.ts into .next/standalone",
  ).toBe(true);

  const database = await scratchDatabaseOrSkip("pds_docker");
  dropDatabase = database.drop;

  const { copies, env, cmd } = runStage();
  expect(copies.map((c) => c.from)).toEqual([".next/standalone", ".next/static", "public", "supabase/migrations"]);
  expect(env).toMatchObject({ NODE_ENV: "production", REQUIRE_SERVER_DATABASE: "1", ...SERVER_ENV });
  expect(cmd).toEqual(["node", ...SERVER_NODE_FLAGS, "server.ts"]);

  const app = fs.mkdtempSync(path.join(os.tmpdir(), "pds-run-stage-"));
  for (const { from, to } of copies)
    fs.cpSync(path.join(ROOT, from), path.join(app, to), { recursive: true, dereference: true });
  // Nothing of the project beyond what the stage copied: no test/, bench/ or README in the image.
  for (const absent of ["test", "bench", "e2e", "README.md", ".data"])
    expect(fs.existsSync(path.join(app, absent))).toBe(false);

  const [command = "node", ...args] = cmd;
  const started = spawn(command === "node" ? process.execPath : command, args, {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? "",
      ...env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      UPLOAD_SIGNING_SECRET: randomBytes(32).toString("base64url"),
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString("base64url"),
      UPKEEP_TIMER: "off",
    } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = started;
  let output = "";
  started.stdout.on("data", (chunk: Buffer) => (output += chunk));
  started.stderr.on("data", (chunk: Buffer) => (output += chunk));

  const health = await pollHealth(
    `http://127.0.0.1:${PORT}`,
    started,
    () => output,
    async (response) => ({
      status: response.status,
      body: (await response.json()) as unknown,
    }),
  );
  expect(health, output).toMatchObject({ status: 200, body: { status: "ok", database: "server" } });
  const spec = await fetch(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
  expect(spec.status).toBe(200);
  // server.ts answers the API itself (lib/ traced into the image); pages go through Next.
  const list = await fetch(`http://127.0.0.1:${PORT}/api/v1/collections`);
  expect(list.status).toBe(401);
  expect(list.headers.get("www-authenticate")).toContain("Bearer");
  const page = await fetch(`http://127.0.0.1:${PORT}/sign-in`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("<html");
});

test("the run stage refuses to start without DATABASE_URL, naming it", async () => {
  const { env, cmd } = runStage();
  const app = path.join(ROOT, ".next", "standalone");
  const child = spawn(process.execPath, cmd.slice(1), {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? "",
      ...env,
      PORT: String(PORT + 1),
      HOST: "127.0.0.1",
      UPKEEP_TIMER: "off",
    } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      resolve(null);
    }, 60_000);
    child.on("exit", (exitCode: number | null) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  expect(code, output).toBe(1);
  expect(output).toContain("DATABASE_URL is not set");
});
