import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { dbConfig, productionProblems } from "@/lib/db/config";
import { uploadSigningSecret } from "@/lib/domain/uploads/signing-secret";
import { webhookSecretsKey } from "@/lib/domain/webhooks/secrets";

/** Starts what instrumentation.ts register() runs at server start, in a process of its own. */
function start(env: Record<string, string>) {
  const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", UPKEEP_TIMER: "off" };
  return spawnSync(
    process.execPath,
    ["-e", "import('./lib/upkeep/startup.ts').then((m) => { m.startServer(); console.log('started'); })"],
    {
      env: { ...base, ...env } as Record<string, string> as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 20_000,
    },
  );
}

describe("refusing to start in production on state that is lost", () => {
  it("on a serverless host in production: no DATABASE_URL or no signing secret stops the process, naming the variable", () => {
    const bare = start({ NODE_ENV: "production", VERCEL: "1" });
    expect(bare.status).toBe(1);
    expect(bare.stderr).toContain("DATABASE_URL is not set");
    expect(bare.stderr).toContain("UPLOAD_SIGNING_SECRET is not set");
    expect(bare.stderr).toContain("WEBHOOK_SECRETS_KEY is not set");

    const noSecret = start({ NODE_ENV: "production", VERCEL: "1", DATABASE_URL: "postgres://db.example/pds" });
    expect(noSecret.status).toBe(1);
    expect(noSecret.stderr).not.toContain("DATABASE_URL");
    expect(noSecret.stderr).toContain("UPLOAD_SIGNING_SECRET");

    const ready = start({
      NODE_ENV: "production",
      VERCEL: "1",
      DATABASE_URL: "postgres://db.example/pds",
      S3_BUCKET: "uploads",
      WEBHOOK_SECRETS_KEY: "k".repeat(40),
    });
    expect(ready.status).toBe(0);
    expect(ready.stdout).toContain("started");
  });

  it("REQUIRE_SERVER_DATABASE=1 asks the same anywhere; without either, the embedded defaults stay", () => {
    const container = start({ REQUIRE_SERVER_DATABASE: "1", UPLOAD_SIGNING_SECRET: "x".repeat(40) });
    expect(container.status).toBe(1);
    expect(container.stderr).toContain("Set DATABASE_URL");
    expect(start({ NODE_ENV: "production" }).status).toBe(0); // `npm start` on a laptop
    expect(productionProblems({ NODE_ENV: "production" })).toEqual([]);
  });

  it("the database and signing-secret layers refuse too, for code that never ran register()", () => {
    expect(() => dbConfig({ REQUIRE_SERVER_DATABASE: "1" })).toThrow(/DATABASE_URL/);
    expect(dbConfig({ REQUIRE_SERVER_DATABASE: "1", DATABASE_URL: "postgres://x/y" })).toEqual({
      kind: "server",
      url: "postgres://x/y",
    });
    expect(() => uploadSigningSecret("/nonexistent", { NODE_ENV: "production", VERCEL: "1" })).toThrow(
      /UPLOAD_SIGNING_SECRET/,
    );
    expect(() => webhookSecretsKey({ REQUIRE_SERVER_DATABASE: "1" })).toThrow(/WEBHOOK_SECRETS_KEY/);
  });
});
