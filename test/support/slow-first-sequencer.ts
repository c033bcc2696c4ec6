import { BaseSequencer, type TestSpecification } from "vitest/node";
import { readsDatabaseEnv, startsProcesses } from "../../scripts/test-files.ts";

/**
 * Starts the long files first. Without timings from an earlier run (a clean clone in CI has none)
 * vitest orders files by size, and a short file that starts processes (the CLI, the code samples,
 * the server-kill and multi-instance tests) or seeds a big catalog came last: one worker ran it for
 * tens of seconds while the other had nothing left (CI on 2026-11-27: 35-50 s of a pass). Those
 * files, found from what they import and read (scripts/test-files.ts), now go first; the rest keep
 * vitest's order. Also with timings: the server pass finds the PGlite pass's, where the server-only
 * files (search-plan) were skipped in no time, so vitest alone put them last (CI of 2026-11-27).
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const spawns = startsProcesses();
    const long = (spec: TestSpecification) => spawns(spec.moduleId) || readsDatabaseEnv(spec.moduleId);
    return [...sorted.filter(long), ...sorted.filter((spec) => !long(spec))];
  }
}
