import path from "node:path";
import { type Env, setting } from "../config/env.ts";

export type DbConfig = { kind: "pglite"; dir: string } | { kind: "server"; url: string };

/** DATABASE_URL selects a Postgres server; otherwise the embedded PGlite under PGLITE_DIR. */
export function dbConfig(env?: Env): DbConfig {
  const url = setting("DATABASE_URL", env);
  if (url) return { kind: "server", url };
  if (mustUseServerDatabase(env)) throw new Error(productionProblems(env).join("\n"));
  // Not a file the build may trace: without the marker Turbopack follows the path and copies the
  // data folder, when one exists, into .next/standalone and so into the image.
  return {
    kind: "pglite",
    dir: setting("PGLITE_DIR", env) ?? path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "pglite"),
  };
}

/**
 * A serverless host in production keeps no local files between invocations (and runs many at
 * once), and a container operator can ask for the same guarantee: REQUIRE_SERVER_DATABASE=1.
 */
export function mustUseServerDatabase(env?: Env): boolean {
  return (
    (setting("NODE_ENV", env) === "production" && Boolean(setting("VERCEL", env))) ||
    setting("REQUIRE_SERVER_DATABASE", env)
  );
}

/** What keeps this process from serving in production, each naming the variable to set; empty when ready. */
export function productionProblems(env?: Env): string[] {
  if (!mustUseServerDatabase(env)) return [];
  const problems: string[] = [];
  if (!setting("DATABASE_URL", env)) {
    problems.push(
      "DATABASE_URL is not set: the embedded database would live in this host's local files, which are not kept. Set DATABASE_URL to a Postgres server (on Supabase, its pooler URL).",
    );
  }
  if (!setting("UPLOAD_SIGNING_SECRET", env) && !setting("S3_BUCKET", env)) {
    problems.push(
      "UPLOAD_SIGNING_SECRET is not set: a secret generated into local files differs per instance and is lost. Set UPLOAD_SIGNING_SECRET (32+ random characters), or S3_BUCKET to store uploads in S3 or Supabase Storage.",
    );
  }
  if (!setting("WEBHOOK_SECRETS_KEY", env)) {
    problems.push(
      "WEBHOOK_SECRETS_KEY is not set: a key generated into local files differs per instance and is lost, and with it every stored webhook signing secret. Set WEBHOOK_SECRETS_KEY (32+ random characters) and keep it.",
    );
  }
  return problems;
}

/** Stops the process, naming each variable to set, when production would serve on state that is lost. */
export function refuseUnsafeProduction(env?: Env): void {
  const problems = productionProblems(env);
  if (!problems.length) return;
  console.error(`Refusing to start in production:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
