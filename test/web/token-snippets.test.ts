import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenSnippets } from "@/lib/web/token-snippets";
import { makeMember } from "../support/factories";
import { serveApi } from "../support/http-server";

const run = promisify(execFile);

describe("the token page's snippets run as shown", () => {
  let server: Awaited<ReturnType<typeof serveApi>>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-snippet-"));
  beforeAll(async () => {
    server = await serveApi();
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the JavaScript one, saved as first-call.mjs and run with node, lists the new token's collections", async () => {
    const member = await makeMember({ scopes: ["collections:read", "collections:write"] });
    const made = await fetch(`${server.url}/api/v1/collections`, {
      method: "POST",
      headers: { Authorization: `Bearer ${member.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Snippet shelf", type: "music" }),
    });
    expect(made.status).toBe(201);
    const snippet = tokenSnippets(server.url, member.token, ["collections:read"]).find(
      (s) => s.language === "javascript",
    );
    if (!snippet) throw new Error("no JavaScript snippet");
    // Nothing to install: no import of an unpublished package.
    expect(snippet.code).not.toMatch(/\bimport\b|require\(/);
    const file = path.join(dir, "first-call.mjs");
    fs.writeFileSync(file, snippet.code);
    // Async, not execFileSync: the API answers from this very process.
    const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
    const body = JSON.parse(stdout) as { data: { name: string }[] };
    expect(body.data.map((c) => c.name)).toEqual(["Snippet shelf"]);
  });

  it("the JavaScript one fails loudly with the service's reason when the call is refused", async () => {
    const member = await makeMember({ scopes: ["collections:read"] });
    const snippet = tokenSnippets(server.url, `${member.token.slice(0, -4)}zzzz`, ["collections:read"])[1];
    const file = path.join(dir, "refused.mjs");
    fs.writeFileSync(file, snippet?.code ?? "");
    const failed = await run(process.execPath, [file], { timeout: 30_000 }).then(
      () => "",
      (error: { stderr: string }) => error.stderr,
    );
    expect(failed).toMatch(/401 \w+/);
  });

  it("the curl one carries the same URL and token", () => {
    const [curl, js] = tokenSnippets(`${server.url}/`, "pds_x", ["items:read"]);
    expect(curl?.code).toContain(`curl -s ${server.url}/api/v1/items`);
    expect(curl?.code).toContain('"Authorization: Bearer pds_x"');
    expect(js?.code).toContain(`fetch("${server.url}/api/v1/items"`);
  });
});
