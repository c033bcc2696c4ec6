/**
 * CI runs every test: a test may be skipped in one vitest pass only if another pass ran it and it
 * passed (worker-processes needs the server pass's database); Playwright may skip nothing.
 */
interface VitestReport {
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

const key = (file: string, name: string) => `${file.replace(/^.*?\/test\//, "test/")} › ${name}`;

/** Tests skipped in some pass and passed in none, by file and name. */
export function skippedEverywhere(reports: readonly VitestReport[]): string[] {
  const skipped = new Set<string>();
  const passed = new Set<string>();
  for (const report of reports) {
    for (const file of report.testResults) {
      for (const test of file.assertionResults) {
        const id = key(file.name, test.fullName);
        if (test.status === "passed") passed.add(id);
        else if (test.status === "skipped" || test.status === "pending" || test.status === "todo") skipped.add(id);
      }
    }
  }
  return [...skipped].filter((id) => !passed.has(id)).sort();
}
