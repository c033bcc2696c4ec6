// npm run generate: every generated artefact, from the registry, the seed and the environment schema, in
// dependency order: the list of member resources, the REST route files, the generated migrations (new files only, never a rewrite of an
// applied one), the migration pins, the typed client from the OpenAPI document, then docs/configuration.md.
// `--check` (CI) fails when any of them changed the tree, naming the files: something generated was stale.
import { spawnSync } from "node:child_process";

const STEPS = [
  "scripts/build-lint-layers.ts",
  "scripts/build-member-resources.ts",
  "scripts/build-rest-routes.ts",
  "scripts/build-event-triggers.ts",
  "scripts/build-activity-triggers.ts",
  "scripts/build-registry-constants.ts",
  "scripts/build-catalog-search.ts",
  "scripts/build-catalog-seed.ts",
  "scripts/pin-migrations.ts",
  "scripts/client-generate.ts",
  "scripts/build-configuration-doc.ts",
];

const git = (...args: string[]) => spawnSync("git", args, { encoding: "utf8" });
const changed = () => git("status", "--porcelain", "--untracked-files=all").stdout.trim();
const check = process.argv.includes("--check");
const before = changed();

for (const step of STEPS) {
  const run = spawnSync(process.execPath, [step], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  const said = run.stdout
    .trim()
    .split("\n")
    .filter((line) => !line.startsWith("wrote app/"));
  if (said.length) console.log(said.join("\n"));
  if (run.status !== 0) {
    console.error(`generate: ${step} failed`);
    process.exit(1);
  }
}

if (check) {
  const after = changed();
  if (after !== before) {
    console.error(`generate --check: generated files were stale; run npm run generate and commit:\n${after}`);
    process.exit(1);
  }
  console.log("generate --check: every generated file is up to date");
}
