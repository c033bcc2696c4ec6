import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../scripts/server-runtime";
import { expect, test } from "./support";

/**
 * server.ts opens its port before Next has loaded its build (the API does not need Next), and loads
 * it after the first answer or at once for a request only Next can answer. The rest of the suite's
 * server is asked /api/v1/health first; here a fresh server.ts is asked a page first, while Next
 * has not begun to load, and must answer it, then the API, then a page again.
 */
const ROOT = process.cwd();
const PORT = Number(process.env.E2E_PORT ?? 3200) + 61;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DIR = path.join(ROOT, ".data", "pglite-e2e-start");

let server: ChildProcess | undefined;
let output = "";

const accepts = () =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(PORT, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

test.afterAll(async () => {
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
  fs.rmSync(DIR, { recursive: true, force: true });
});

test("a fresh server answers a page as its very first request, then the API", async () => {
  test.setTimeout(120_000);
  fs.rmSync(DIR, { recursive: true, force: true });
  server = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.ts"], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PGLITE_DIR: DIR,
      DATABASE_URL: "",
      REDIS_URL: "",
      WEBHOOKS_WORKER: "off",
      UPKEEP_TIMER: "off",
      RESOLVER_PROVIDERS: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const child = server;
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const deadline = Date.now() + 60_000;
  while (!(await accepts())) {
    expect(child.exitCode, output).toBeNull();
    expect(Date.now() < deadline, `server.ts did not open its port:\n${output}`).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const page = await fetch(`${ORIGIN}/sign-in`);
  expect(page.status, output).toBe(200);
  expect(await page.text()).toContain("<html");
  const health = await fetch(`${ORIGIN}/api/v1/health`);
  expect(health.status).toBe(200);
  expect((await fetch(`${ORIGIN}/docs`)).status).toBe(200);
});
