import { defineConfig } from "vitest/config";
import { EMBEDDED_DATABASE_NODE_FLAGS } from "../scripts/server-runtime.ts";
import { suiteEnv } from "../test/support/suite-env.ts";

// npm run reliability: the reliability suite (not part of npm test). One file at a time, one
// worker: the figures are about the service, not about a contended test runner.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    include: ["reliability/**/*.rel.ts"],
    setupFiles: ["test/support/warm-database.ts"],
    fileParallelism: false,
    maxWorkers: 1,
    isolate: false,
    pool: "forks",
    execArgv: [...EMBEDDED_DATABASE_NODE_FLAGS],
    testTimeout: 900_000,
    hookTimeout: 180_000,
    sequence: { concurrent: false },
    env: suiteEnv("1000000"),
  },
});
