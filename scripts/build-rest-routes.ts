// Writes app/api/v1/<path>/route.ts for each fixed REST path of the registry and removes generated
// ones the registry no longer has. Run: node scripts/build-rest-routes.ts
// (test/surfaces/static-routes.test.ts fails when they are stale).
import fs from "node:fs";
import path from "node:path";
import { fixedRestPaths, GENERATED_MARK, REST_ROUTE_ROOT, routeFile } from "../lib/surfaces/rest-route-files.ts";

const wanted = new Set<string>();
for (const segments of fixedRestPaths()) {
  const { file, source } = routeFile(segments);
  wanted.add(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, source);
  console.log(`wrote ${file}`);
}
for (const file of fs.globSync(`${REST_ROUTE_ROOT}/**/route.ts`)) {
  if (wanted.has(file) || !fs.readFileSync(file, "utf8").startsWith(GENERATED_MARK)) continue;
  fs.rmSync(file);
  console.log(`removed ${file}`);
}
