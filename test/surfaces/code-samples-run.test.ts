import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { type Capability, capabilities } from "@/registry/capabilities";
import { makeMember } from "../support/factories";
import { serveApi } from "../support/http-server";

/**
 * The reference's code samples run as shown: each is copied as it stands into a file, run with
 * PDS_URL and PDS_TOKEN set against the API on a real socket, and must either succeed or fail with
 * the problem the API answered (a sample id that does not exist is a 404, not a broken sample).
 */
type Sample = { lang: string; label: string; source: string };
const run = promisify(execFile);
const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Record<string, unknown>>> };
const rest = capabilities.filter(
  (c): c is Capability & { http: NonNullable<Capability["http"]> } => c.http !== undefined,
);
const sample = (c: (typeof rest)[number], label: string) =>
  ((doc.paths[c.http.path]?.[c.http.method.toLowerCase()]?.["x-codeSamples"] ?? []) as Sample[]).find(
    (s) => s.label === label,
  )?.source ?? "";
/** Calls that need nothing but the token: these must succeed. */
const plainReads = rest.filter((c) => c.http.method === "GET" && c.http.pathParams.length === 0);
const hasPythonRequests = (() => {
  try {
    execFileSync("python3", ["-c", "import requests"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("the reference's code samples, run as shown", () => {
  let server: Awaited<ReturnType<typeof serveApi>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    server = await serveApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-samples-"));
    const member = await makeMember();
    env = {
      PATH: process.env.PATH,
      HOME: dir,
      PDS_URL: server.url,
      PDS_TOKEN: member.token,
      NODE_ENV: "production",
    } as NodeJS.ProcessEnv;
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Exit 0, or the problem line the sample throws: "<status> <code>: <detail>". */
  async function outcome(
    command: string,
    args: string[],
  ): Promise<{ ok: true; stdout: string } | { ok: false; stderr: string }> {
    try {
      const { stdout } = await run(command, args, { cwd: dir, env, timeout: 30_000 });
      return { ok: true, stdout };
    } catch (error) {
      return { ok: false, stderr: String((error as { stderr?: string }).stderr ?? error) };
    }
  }

  it("JavaScript (fetch): every operation's sample runs in Node; plain reads succeed, the rest succeed or throw the API's problem", async () => {
    for (const c of rest) {
      const file = path.join(dir, `${c.tool}.mjs`);
      fs.writeFileSync(file, sample(c, "JavaScript (fetch)"));
      const result = await outcome(process.execPath, [file]);
      if (plainReads.includes(c)) expect(result, c.tool).toMatchObject({ ok: true });
      if (!result.ok) expect(result.stderr, c.tool).toMatch(/Error: [1-5]\d\d [a-z_]+: /);
    }
    expect(fs.statSync(path.join(dir, "export.zip")).size).toBeGreaterThan(0);
  }, 300_000);

  it("curl: every sample is one valid command; plain reads answer JSON, no body or key is refused as malformed", async () => {
    for (const c of rest) {
      const result = await outcome("sh", ["-c", sample(c, "curl")]);
      expect(result, c.tool).toMatchObject({ ok: true });
      if (!result.ok || c.tool === "export") continue;
      const body = result.stdout ? JSON.parse(result.stdout) : null;
      expect(["malformed_request", "unsupported_media_type"], c.tool).not.toContain(body?.code);
      if (plainReads.includes(c)) expect(body?.code, c.tool).toBeUndefined();
    }
  }, 300_000);

  it("the typed client's README example runs as shown from the repository's root (the client is not published)", async () => {
    const readme = fs.readFileSync("clients/typescript/README.md", "utf8");
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(example).toContain('from "./clients/typescript/src/index.ts"');
    // Where the README says to put it: a file at the repository's root, run by node as it stands.
    const file = path.join(process.cwd(), `.readme-example-${process.pid}.ts`);
    fs.writeFileSync(file, example);
    try {
      const result = await outcome(process.execPath, [file]);
      expect(result).toMatchObject({ ok: true });
      expect(result.ok && result.stdout).toContain("Road trip");
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it.skipIf(!hasPythonRequests)(
    "Python (requests): plain reads run and print their answer",
    async () => {
      for (const c of plainReads) {
        const result = await outcome("python3", ["-c", sample(c, "Python (requests)")]);
        expect(result, c.tool).toMatchObject({ ok: true });
      }
    },
    300_000,
  );
});
