import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { TOKEN_PATTERN } from "@/lib/auth/token-format";
import { CLI_ARGS, CLI_NODE } from "../support/cli-command";

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-cli-"));
// The CLI runs in its own process against the same store the suite uses: its own embedded
// folder on the PGlite pass, the test database on the server pass.
const env = { ...process.env, PGLITE_DIR: path.join(dir, "db") };

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run(CLI_NODE, [...CLI_ARGS, ...args], { env });
    return { code: 0, stdout: stdout.trim(), stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout.trim(), stderr: failed.stderr };
  }
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("operator CLI", () => {
  const email = `cli-${Date.now()}@example.test`;

  it("creates a member, prints it as JSON, and a token usable only as scoped", { timeout: 60_000 }, async () => {
    const created = await cli("member", "create", "--email", email, "--password", "correct horse", "--plan", "pro");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email, plan: "pro", id: expect.any(String) });

    const token = await cli(
      "token",
      "create",
      "--email",
      email,
      "--scopes",
      "collections:read,items:write",
      "--days",
      "7",
    );
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(TOKEN_PATTERN); // only the token, nothing else
  });

  it("changes the plan", { timeout: 60_000 }, async () => {
    const changed = await cli("member", "plan", "--email", email, "--plan", "free");
    expect(JSON.parse(changed.stdout)).toMatchObject({ plan: "free" });
  });

  it("refuses bad input with exit code 2 and a reason", { timeout: 60_000 }, async () => {
    const unknownScope = await cli("token", "create", "--email", email, "--scopes", "everything:write");
    expect(unknownScope.code).toBe(2);
    expect(unknownScope.stderr).toContain("unknown scope");
    const tooLong = await cli("token", "create", "--email", email, "--scopes", "todos:read", "--days", "400");
    expect(tooLong.code).toBe(2);
    const nobody = await cli("token", "create", "--email", "nobody@example.test", "--scopes", "todos:read");
    expect(nobody.code).toBe(2);
    expect((await cli("frobnicate")).code).toBe(2);
  });

  it("lists tokens without secrets and revokes one by id", { timeout: 60_000 }, async () => {
    const listed = JSON.parse((await cli("token", "list", "--email", email)).stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ scopes: ["collections:read", "items:write"], revoked_at: null });
    expect(JSON.stringify(listed)).not.toMatch(/pds_/);
    const revoked = await cli("token", "revoke", "--id", listed[0].id);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: listed[0].id, revoked: true });
    const after = JSON.parse((await cli("token", "list", "--email", email)).stdout);
    expect(after[0].revoked_at).toEqual(expect.any(String));
    expect((await cli("token", "revoke", "--id", listed[0].id)).code).toBe(2); // already revoked
    const missing = await cli("token", "revoke", "--id", "00000000-0000-4000-8000-000000000000");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no live token");
  });

  it("makes a token with limits, refusing a collection not the member's and an unknown tool", {
    timeout: 90_000,
  }, async () => {
    const base = ["token", "create", "--email", email, "--scopes", "items:read", "--name", "limited"];
    const foreign = await cli(...base, "--collections", "00000000-0000-4000-8000-000000000000");
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain("Unknown collection");
    const unknownTool = await cli(...base, "--tools", "items_list,format_disk");
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toContain("Unknown tool: format_disk");
    const made = await cli(...base, "--read-only", "--confirm-destructive", "--tools", "items_list,items_get");
    expect(made.stdout).toMatch(TOKEN_PATTERN);
    const listed = JSON.parse((await cli("token", "list", "--email", email)).stdout) as {
      name: string;
      limits: unknown;
    }[];
    expect(listed.find((token) => token.name === "limited")?.limits).toEqual({
      readOnly: true,
      confirmDestructive: true,
      tools: ["items_list", "items_get"],
    });
  });
});
