import { describe, expect, it } from "vitest";
import { skippedEverywhere } from "@/scripts/skipped-tests";

const report = (file: string, tests: Record<string, string>) => ({
  testResults: [
    {
      name: `/repo/test/${file}`,
      assertionResults: Object.entries(tests).map(([fullName, status]) => ({ fullName, status })),
    },
  ],
});

describe("CI's check that every test ran somewhere", () => {
  it("accepts a test skipped in one pass and passed in another", () => {
    const pglite = report("webhooks/worker-processes.test.ts", { "kill -9": "skipped", other: "passed" });
    const server = report("webhooks/worker-processes.test.ts", { "kill -9": "passed", other: "passed" });
    expect(skippedEverywhere([pglite, server])).toEqual([]);
  });

  it("names a test skipped in every pass, or in the only pass that ran", () => {
    const pglite = report("a.test.ts", { one: "skipped", two: "todo" });
    const server = report("a.test.ts", { one: "skipped", two: "passed" });
    expect(skippedEverywhere([pglite, server])).toEqual(["test/a.test.ts › one"]);
    expect(skippedEverywhere([pglite])).toEqual(["test/a.test.ts › one", "test/a.test.ts › two"]);
  });
});
