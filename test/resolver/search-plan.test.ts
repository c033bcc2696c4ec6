import { describe, expect, it } from "vitest";
import { getDb, type Queryable } from "@/lib/db";
import { handlerFor } from "@/lib/domain/handlers";
import { capabilityByTool } from "@/registry/capabilities";
import { makeMember } from "../support/factories";

/**
 * GET /search on a catalog large enough that a scan would show: the planner must answer from the
 * trigram and full-text indexes. The rows and their statistics live in a transaction rolled back
 * at the end, so no other test sees them.
 */
describe("search plan", () => {
  it("uses the catalog's indexes, not a scan, on a 50,000-entry catalog", async () => {
    const member = await makeMember();
    const capability = capabilityByTool.get("search");
    if (!capability) throw new Error("no search capability");
    const db = await getDb();
    const plan = await db
      .transaction(async (tx) => {
        // One title in fifty has the word, as a common word in a real catalog of songs.
        await tx.query(
          `insert into public.catalog_entries (domain, title, subtitle)
           select 'music', case when g % 50 = 0 then 'Midnight ' else '' end
                    || substr(md5(g::text), 1, 7) || ' ' || substr(md5((g * 7)::text), 1, 5),
                  'Artist ' || (g % 997)
           from generate_series(1, 50000) g`,
        );
        await tx.query("analyze public.catalog_entries");
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: member.id, role: "authenticated" }),
        ]);
        // The plan is taken at the moment the handler sends its ranking query, with its settings.
        let plan = "";
        const recorder: Queryable = {
          query: async (sql, params = []) => {
            if (sql.includes("from public.catalog_entries c")) {
              const rows = await tx.query<{ "QUERY PLAN": string }>(`explain ${sql}`, params);
              plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
            }
            return tx.query(sql, params);
          },
        };
        await handlerFor(capability)({ memberId: member.id, tx: recorder, input: { query: "midnight" }, capability });
        if (!plan) throw new Error("search ran no ranking query");
        throw Object.assign(new Error("roll back"), { plan });
      })
      .catch((error: { plan?: string }) => {
        if (!error.plan) throw error;
        return error.plan;
      });
    expect(plan).toMatch(/Bitmap Index Scan on catalog_entries_search_trgm_idx/);
    expect(plan).toMatch(/Bitmap Index Scan on catalog_entries_search_fts_idx/);
    expect(plan).not.toMatch(/Seq Scan on catalog_entries/);
  }, 120_000);
});
