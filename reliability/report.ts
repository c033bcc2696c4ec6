import fs from "node:fs";
import path from "node:path";

export const REPORT_FILE = path.join(process.cwd(), "reports", "reliability.json");

/** Merges one part's figures into reports/reliability.json (the parts run one after another). */
export function record(part: string, figures: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(REPORT_FILE), { recursive: true });
  const report = fs.existsSync(REPORT_FILE) ? JSON.parse(fs.readFileSync(REPORT_FILE, "utf8")) : {};
  report.generated_at = new Date().toISOString();
  report.machine = { cpus: (globalThis.navigator?.hardwareConcurrency ?? 0) || undefined, node: process.version };
  // Isolation, fuzzing and the block/follow races run in-process on the database the environment
  // selects (PGlite by default, *_on_postgres with DATABASE_URL); crash safety and limits use both
  // stores themselves.
  delete report.database;
  report[part] = { ...figures, at: new Date().toISOString() };
  fs.writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
}
