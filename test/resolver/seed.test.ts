import { describe, expect, it } from "vitest";
import { toIsbn13 } from "@/lib/domain/resolver/isbn";
import { seedDrafts } from "@/lib/domain/resolver/seed-drafts";
import { newestGeneratedMigration } from "@/lib/db/generated-migration";
import { SEED_MIGRATION_SUFFIX, seedMigrationSql } from "@/lib/domain/resolver/seed-migration";
import { sqlAsService } from "../support/store";

describe("offline seed catalog", () => {
  it("is the generated migration of the seed files (run node scripts/build-catalog-seed.ts after editing them)", () => {
    expect(newestGeneratedMigration(SEED_MIGRATION_SUFFIX)?.sql).toBe(seedMigrationSql());
  });

  it("holds a few hundred entries across all six domains, every ISBN valid, no id twice", () => {
    const drafts = seedDrafts();
    expect(drafts.length).toBeGreaterThanOrEqual(400);
    for (const domain of ["music", "film", "books", "articles", "places", "products"]) {
      expect(drafts.filter((draft) => draft.domain === domain).length, domain).toBeGreaterThanOrEqual(20);
    }
    const keys = drafts.flatMap((draft) => draft.external_ids.map((id) => `${id.namespace}:${id.value}`));
    expect(new Set(keys).size).toBe(keys.length);
    for (const id of drafts.flatMap((draft) => draft.external_ids)) {
      if (id.namespace === "isbn13") expect(toIsbn13(id.value)).toBe(id.value);
      if (id.namespace === "imdb") expect(id.value).toMatch(/^tt\d{7,8}$/);
    }
  });

  it("is loaded by the migrations, with search documents computed", async () => {
    const rows = await sqlAsService<{ domain: string; n: number; blank: number }>(
      "select domain, count(*)::int as n, count(*) filter (where search_text = '')::int as blank from public.catalog_entries where source = 'seed' group by domain",
    );
    expect(rows.length).toBe(6);
    for (const row of rows) expect(row.blank).toBe(0);
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(seedDrafts().length);
  });
});
