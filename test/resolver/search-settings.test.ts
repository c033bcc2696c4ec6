import { describe, expect, it } from "vitest";
import { searchCatalog } from "@/lib/catalog/search-query";
import { asMember } from "@/lib/db";
import { makeMember } from "../support/factories";

const SETTINGS = ["enable_seqscan", "plan_cache_mode", "max_parallel_workers_per_gather"];

/**
 * The search tunes the planner for its own statements (no sequential scan, no parallel workers, a
 * generic plan for the stored scores). A resolve goes on in the same transaction after it: what
 * runs next must find the settings as they were.
 */
describe("search settings", () => {
  it("gives the planner's settings back to the statements that follow it in the transaction", async () => {
    const ada = await makeMember();
    for (const query of ["the hobbit", "midnigth"]) {
      const [before, after] = await asMember(ada.id, async (tx) => {
        const read = async () =>
          (
            await tx.query<Record<string, string>>(
              `select ${SETTINGS.map((s) => `current_setting('${s}') as ${s}`).join(", ")}`,
            )
          )[0];
        // Not the defaults (the embedded database has no parallel workers): what was set must come back.
        await tx.query(
          "select set_config('max_parallel_workers_per_gather', '3', true), set_config('plan_cache_mode', 'force_custom_plan', true)",
        );
        const was = await read();
        const { hits } = await searchCatalog(tx, { query, limit: 5 });
        expect(hits.length, query).toBeGreaterThan(0);
        return [was, await read()];
      });
      expect(after, query).toEqual(before);
    }
  });
});
