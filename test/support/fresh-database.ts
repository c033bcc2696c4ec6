import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { dbConfig } from "@/lib/db/config";
import type { Database } from "@/lib/db/types";

/**
 * A database of its own, empty, of the kind the suite runs on (an in-memory PGlite, or a new
 * database on the same Postgres server), for tests that apply migrations step by step.
 */
export async function freshDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  const config = dbConfig();
  if (config.kind === "pglite") {
    const db = await (await import("@/lib/db/pglite-driver")).openPglite("memory://");
    return { db, drop: () => db.close() };
  }
  const admin = postgres(config.url, { max: 1, onnotice: () => {} });
  const name = `pds_fresh_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(config.url);
  url.pathname = `/${name}`;
  const db = await (await import("@/lib/db/server-driver")).openServer(url.toString());
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 1 });
    },
  };
}
