import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/warm-database.ts"],
    // Files in one worker share its database (each test makes its own members), which saves an
    // initdb per file on PGlite.
    isolate: false,
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Unit and API tests use an in-memory PGlite unless DATABASE_URL selects the server.
    // Rate limits are raised for the suite so tests that make many calls with one token do not
    // trip them; test/limits sets the spec's numbers back where it tests them.
    // WEBHOOKS_WORKER=off: server processes the tests spawn (scripts/serve-rest.ts) share the
    // database with other files, whose deliveries their worker would take; a test that wants the
    // in-process worker turns it on for its own store.
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      WEBHOOKS_WORKER: "off",
      UPKEEP_TIMER: "off",
      PGLITE_DIR: process.env.PGLITE_DIR ?? "memory://",
      RATE_LIMIT_CAPACITY: process.env.RATE_LIMIT_CAPACITY ?? "100000",
      RATE_LIMIT_RESOLVER_CAPACITY: process.env.RATE_LIMIT_RESOLVER_CAPACITY ?? "100000",
    },
  },
});
