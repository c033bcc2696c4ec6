import path from "node:path";

export type DbConfig = { kind: "pglite"; dir: string } | { kind: "server"; url: string };

/** DATABASE_URL selects a Postgres server; otherwise the embedded PGlite under PGLITE_DIR. */
export function dbConfig(env: NodeJS.ProcessEnv = process.env): DbConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "server", url };
  return { kind: "pglite", dir: env.PGLITE_DIR?.trim() || path.join(process.cwd(), ".data", "pglite") };
}
