import { defineConfig } from "vitest/config";
import { EMBEDDED_DATABASE_NODE_FLAGS } from "./scripts/server-runtime.ts";
import { TEST_FILES } from "./scripts/test-files.ts";
import SlowFirstSequencer from "./test/support/slow-first-sequencer.ts";
import { suiteEnv } from "./test/support/suite-env.ts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    // npm test runs them all on PGlite, then those that can touch a database on the server too.
    include: [TEST_FILES],
    setupFiles: ["test/support/warm-database.ts"],
    // Files in one worker share its database (each test makes its own members), which saves an
    // initdb per file on PGlite.
    isolate: false,
    pool: "forks",
    // Each worker opens PGlite (scripts/server-runtime.ts: the V8 abort the flag avoids).
    execArgv: [...EMBEDDED_DATABASE_NODE_FLAGS],
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Unit and API tests use an in-memory PGlite unless DATABASE_URL selects the server
    // (test/support/suite-env.ts).
    env: suiteEnv("100000"),
  },
});
