// npm start: builds when the sources are newer than the last build, then serves with server.ts
// (Next for pages, the API answered directly; PORT, HOST).
import { buildIfStale } from "./next-build.ts";

try {
  buildIfStale();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

await import("../server.ts");
