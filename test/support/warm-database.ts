import { beforeAll } from "vitest";
import { getDb } from "@/lib/db";

// The first getDb() of a worker runs initdb (PGlite) and the migrations: seconds of work that
// belong in a hook with its own budget, not inside whichever test happens to come first.
beforeAll(async () => {
  await getDb();
}, 180_000);
