import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { upsertDraft } from "@/lib/catalog/catalog-store";
import { asService } from "@/lib/db";
import { sqlAsService } from "../support/store";

/**
 * A GIN index with fastupdate (Postgres's default) keeps new entries in a pending list that every scan
 * reads in full until VACUUM moves it into the index, and PGlite never vacuums on its own. Searches scan
 * the catalog's GIN indexes, so they keep no list (20261129070000_catalog_gin_no_pending_list.sql).
 */
describe("the catalog's GIN indexes", () => {
  it("hold nothing pending after an entry is saved, as the resolver saves it", async () => {
    await asService((tx) =>
      upsertDraft(tx, {
        domain: "music",
        kind: "song",
        title: `Pending lantern ${randomUUID().slice(0, 8)}`,
        creators: [{ name: "Index Tester", role: "artist" }],
        external_ids: [{ namespace: "test", value: randomUUID() }],
      }),
    );
    // gin_clean_pending_list answers how many pending pages it moved into the index.
    const [moved] = await sqlAsService<{ trigrams: number; words: number }>(
      `select pg_catalog.gin_clean_pending_list('public.catalog_entries_search_trgm_idx'::regclass)::int as trigrams,
              pg_catalog.gin_clean_pending_list('public.catalog_entries_search_fts_idx'::regclass)::int as words`,
    );
    expect(moved).toEqual({ trigrams: 0, words: 0 });
  });

  it("are every GIN index of the store, each with fastupdate off (a new one is a decision)", async () => {
    const rows = await sqlAsService<{ index: string; options: string[] | null }>(
      `select n.nspname || '.' || c.relname as index, c.reloptions as options
         from pg_catalog.pg_class c
         join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         join pg_catalog.pg_am am on am.oid = c.relam
        where am.amname = 'gin' and n.nspname in ('public', 'app_private', 'auth')
        order by 1`,
    );
    expect(rows).toEqual([
      { index: "public.catalog_entries_search_fts_idx", options: ["fastupdate=off"] },
      { index: "public.catalog_entries_search_trgm_idx", options: ["fastupdate=off"] },
    ]);
  });
});
