// Writes the generated route files under app/: app/api/v1/<path>/route.ts for each fixed REST path of
// the registry, and the route files of the routes outside it (lib/surfaces/fixed-routes.ts); removes
// generated ones that are no longer wanted. Run: node scripts/build-rest-routes.ts (npm run generate;
// test/surfaces/static-routes.test.ts fails when they are stale).
import fs from "node:fs";
import path from "node:path";
import { FIXED_ROUTE_MARK, GENERATED_MARK, generatedRouteFiles } from "../lib/surfaces/rest-route-files.ts";

const wanted = new Set<string>();
for (const { file, source } of generatedRouteFiles()) {
  wanted.add(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, source);
  console.log(`wrote ${file}`);
}
for (const file of fs.globSync("app/**/route.ts")) {
  const text = fs.readFileSync(file, "utf8");
  if (wanted.has(file) || !(text.startsWith(GENERATED_MARK) || text.startsWith(FIXED_ROUTE_MARK))) continue;
  fs.rmSync(file);
  console.log(`removed ${file}`);
}
