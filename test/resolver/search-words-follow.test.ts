import { describe, expect, it } from "vitest";
import { rolledBack } from "../support/rolled-back";

/**
 * The stored one-word scores (catalog_search_words) follow their entries through statement
 * triggers: whatever a statement inserts or updates, in one row or many, ends with exactly the
 * words and scores catalog_search_words_of gives for the stored rows. Run in a transaction rolled
 * back at the end, so the catalog other tests see is untouched.
 */
describe("catalog search words", () => {
  it("follow inserts and updates of one entry or many in one statement, and go with a deleted entry", async () => {
    await rolledBack(async (tx) => {
      const stored = (ids: string[]) =>
        tx.query<{ entry_id: string; word: string; score: string }>(
          `select entry_id, word, score::text from public.catalog_search_words
              where entry_id = any ($1::uuid[]) order by entry_id, word`,
          [ids],
        );
      const expected = (ids: string[]) =>
        tx.query<{ entry_id: string; word: string; score: string }>(
          `select w.entry_id, w.word, w.score::text
               from public.catalog_entries c, lateral app_private.catalog_search_words_of(c) w
              where c.id = any ($1::uuid[]) order by w.entry_id, w.word`,
          [ids],
        );
      const same = async (ids: string[], what: string) => {
        const want = await expected(ids);
        expect(want.length, what).toBeGreaterThan(0);
        expect(await stored(ids), what).toEqual(want);
      };

      const many = (
        await tx.query<{ id: string }>(
          `insert into public.catalog_entries (domain, title, subtitle)
             select 'music', 'Words follow ' || g, 'Tester ' || g from generate_series(1, 30) g returning id`,
        )
      ).map((row) => row.id);
      await same(many, "a thirty-row insert");

      const [one] = await tx.query<{ id: string }>(
        "insert into public.catalog_entries (domain, title) values ('books', 'Lantern harbour') returning id",
      );
      if (!one) throw new Error("no entry");
      await same([one.id], "a one-row insert");
      expect((await stored([one.id])).map((row) => row.word)).toEqual(["harbour", "lantern"]);

      // A new title replaces the words; a popularity change moves every score of the entry.
      await tx.query("update public.catalog_entries set title = 'Quiet meridian' where id = $1", [one.id]);
      expect((await stored([one.id])).map((row) => row.word)).toEqual(["meridian", "quiet"]);
      await same([one.id], "a new title");
      const before = await stored(many);
      await tx.query("update public.catalog_entries set popularity = 9 where id = any ($1::uuid[])", [many]);
      await same(many, "a many-row update");
      expect(await stored(many)).not.toEqual(before);

      // An upsert's update side fires the update trigger with the conflicting row.
      await tx.query(
        `insert into public.catalog_entries (id, domain, title) values ($1, 'books', 'Amber lighthouse')
           on conflict (id) do update set title = excluded.title`,
        [one.id],
      );
      expect((await stored([one.id])).map((row) => row.word)).toEqual(["amber", "lighthouse"]);

      await tx.query("delete from public.catalog_entries where id = any ($1::uuid[])", [[...many, one.id]]);
      expect(await stored([...many, one.id])).toEqual([]);
    });
  });
});
