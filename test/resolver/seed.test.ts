import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { toIsbn13 } from "@/lib/catalog/isbn";
import { seedDrafts } from "@/lib/catalog/seed-drafts";
import {
  applySeedIdsDelta,
  baseSeedRows,
  SEED_IDS_MIGRATION_SUFFIX,
  seedIdsDelta,
  seedIdsMigrationSql,
} from "@/lib/catalog/seed-ids-migration";
import { newestGeneratedMigration } from "@/lib/db/generated-migration";
import { SEED_MIGRATION_FILE, seedMigrationSql, seedRows } from "@/lib/catalog/seed-migration";
import { sqlAsService } from "../support/store";

describe("offline seed catalog", () => {
  it("is the applied base migration plus the generated platform-ids migration (run node scripts/build-catalog-seed.ts after editing the seed)", () => {
    // The base migration is applied, so it is frozen: it must still be exactly the generator's text of its own rows.
    expect(fs.readFileSync(SEED_MIGRATION_FILE, "utf8")).toBe(seedMigrationSql(baseSeedRows()));
    // The ids added since are the newest platform-ids migration, exactly as generated from the seed files now.
    expect(newestGeneratedMigration(SEED_IDS_MIGRATION_SUFFIX)?.sql).toBe(seedIdsMigrationSql());
    // And the two together hold every seeded entry exactly as the seed files describe it.
    expect(applySeedIdsDelta(baseSeedRows(), seedIdsDelta())).toEqual(seedRows());
  });

  it("refuses, in the generator, any seed change the platform-ids migration cannot carry", () => {
    const [first, ...rest] = seedRows();
    if (!first) throw new Error("empty seed");
    expect(() => seedIdsDelta(baseSeedRows(), [{ ...first, title: `${first.title} (renamed)` }, ...rest])).toThrow(
      /changed its title/,
    );
    expect(() =>
      seedIdsDelta(baseSeedRows(), [{ ...first, external_ids: first.external_ids.slice(0, 1) }, ...rest]),
    ).toThrow(/lost ids/);
    expect(() =>
      seedIdsDelta(baseSeedRows(), [{ ...first, id: "00000000-0000-5000-8000-000000000000" }, ...rest]),
    ).toThrow(/is new/);
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

  it("holds, after both seed migrations, every id of the seed files on its seeded entry", async () => {
    const filed = await sqlAsService<{ key: string; entry_id: string }>(
      "select namespace || ':' || value as key, entry_id::text from public.catalog_external_ids",
    );
    const owner = new Map(filed.map((row) => [row.key, row.entry_id]));
    const missing = seedRows().flatMap((row) =>
      row.external_ids.map((id) => `${id.namespace}:${id.value}`).filter((key) => owner.get(key) !== row.id),
    );
    expect(missing).toEqual([]);
  });
});
