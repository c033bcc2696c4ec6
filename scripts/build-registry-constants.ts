// Writes the registry's constants as SQL functions (app_private.limit_*), see lib/db/registry-constants.ts.
// Run: node scripts/build-registry-constants.ts               rewrites the latest *_registry_constants.sql
//      node scripts/build-registry-constants.ts --new <14 digits>   once that file is applied anywhere
// test/db/registry-drift.test.ts fails while the latest file differs from what this writes.
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR } from "../lib/db/migrate.ts";
import {
  latestRegistryConstantsFile,
  REGISTRY_CONSTANTS_SUFFIX,
  registryConstantsSql,
} from "../lib/db/registry-constants.ts";

const at = process.argv.indexOf("--new");
const version = at >= 0 ? process.argv[at + 1] : undefined;
if (at >= 0 && !/^\d{14}$/.test(version ?? "")) {
  console.error("--new needs a 14-digit version, e.g. 20261201090000");
  process.exit(2);
}
const file = version ? path.join(MIGRATIONS_DIR, `${version}${REGISTRY_CONSTANTS_SUFFIX}`) : latestRegistryConstantsFile();
if (!file) {
  console.error("no *_registry_constants.sql yet: pass --new <version>");
  process.exit(2);
}
fs.writeFileSync(file, registryConstantsSql());
console.log(`wrote ${file}`);
