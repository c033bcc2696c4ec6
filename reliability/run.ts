// npm run reliability: every part on the embedded database (crash safety and limits start their own
// server processes on both stores), then isolation, fuzzing and the block/follow races again on a
// scratch Postgres database.
// Figures: reports/reliability.json.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { REPORT_FILE } from "./report.ts";

const vitest = path.join(process.cwd(), "node_modules", ".bin", "vitest");
const config = ["run", "--config", "reliability/vitest.config.ts"];
const adminUrl = process.env.RELIABILITY_ADMIN_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

const run = (args: string[], env: NodeJS.ProcessEnv) => spawnSync(vitest, args, { stdio: "inherit", env }).status ?? 1;

const { DATABASE_URL: _ignored, ...baseEnv } = process.env;
let status = run(config, baseEnv);

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const name = `pds_reliability_${randomBytes(4).toString("hex")}`;
await admin.unsafe(`create database ${name}`);
try {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  status ||= run([...config, "reliability/isolation.rel.ts", "reliability/fuzz.rel.ts", "reliability/races.rel.ts"], {
    ...baseEnv,
    DATABASE_URL: url.toString(),
  });
} finally {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end({ timeout: 1 });
}
const ssrf = JSON.parse(fs.readFileSync(REPORT_FILE, "utf8")).ssrf;
if (ssrf) console.log(`ssrf: ${ssrf.addresses} addresses, ${ssrf.failures} failures`);
process.exit(status);
