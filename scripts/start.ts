// npm start: says what a start does and how long it takes, then serves with server.ts (Next for
// pages, the API answered directly; PORT, HOST). Three steps: the dependencies npm installed, the
// production build (made only when a source is newer than it, scripts/next-build.ts), and the
// database (the embedded one is created on first use; pending migrations are applied).
import fs from "node:fs";
import path from "node:path";
import { FIRST_BUILD_ESTIMATE, buildWithProgress, staleness } from "./next-build.ts";

const root = process.cwd();
const step = (n: number, line: string) => console.log(`[${n}/3] ${line}`);
const since = (started: number) => `${Math.round((Date.now() - started) / 1000)} s`;

// npm writes node_modules/.package-lock.json on every install: older than the lockfile means the
// lockfile changed since (a pull), and the build or the server would fail on a missing package.
const installed = path.join(root, "node_modules", ".package-lock.json");
const lockfile = path.join(root, "package-lock.json");
if (!fs.existsSync(installed)) {
  step(1, "dependencies: node_modules is missing; run `npm install` first (about 1 minute).");
  process.exit(1);
}
if (fs.existsSync(lockfile) && fs.statSync(lockfile).mtimeMs > fs.statSync(installed).mtimeMs + 1000) {
  step(1, "dependencies: package-lock.json changed since the last `npm install`; run it again if the build fails.");
} else step(1, "dependencies: installed.");

if (staleness()) {
  console.log(
    `\nThis start builds first (${FIRST_BUILD_ESTIMATE}, longer on a busy machine); later starts skip the build until a source changes.\n`,
  );
}
const building = Date.now();
try {
  const outcome = await buildWithProgress((line) => step(2, `build: ${line}`));
  if (outcome === "reused") step(2, "build: up to date, reused.");
  else step(2, `build: done in ${since(building)}.`);
} catch (error) {
  step(2, `build: ${(error as Error).message}`);
  process.exit(1);
}

// Opened here, before the server, so its cost is announced rather than paid by the first request;
// server.ts reuses this very database (one per process, lib/db).
const { dbConfig } = await import("../lib/db/config.ts");
const { getDb } = await import("../lib/db/index.ts");
const migrating = Date.now();
try {
  const config = dbConfig();
  if (config.kind === "server")
    step(3, `database: connecting to ${new URL(config.url).host}, applying any new migrations…`);
  else if (config.dir.startsWith("memory://"))
    step(3, "database: a throwaway in-memory database; applying the migrations (about 20 s)…");
  else if (!fs.existsSync(config.dir) || fs.readdirSync(config.dir).length === 0) {
    step(
      3,
      `database: creating the embedded database in ${path.relative(root, config.dir) || config.dir} and applying the migrations (first start only: about 20 s)…`,
    );
  } else step(3, `database: opening ${path.relative(root, config.dir) || config.dir}, applying any new migrations…`);
  const db = await getDb();
  const [ledger] = await db.query<{ applied: number }>(
    "select count(*)::int as applied from supabase_migrations.schema_migrations",
  );
  step(3, `database: ready in ${since(migrating)} (${ledger?.applied ?? 0} migrations applied).`);
} catch (error) {
  step(3, `database: ${(error as Error).message}`);
  process.exit(1);
}

await import("../server.ts");
