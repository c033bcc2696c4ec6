import { randomUUID } from "node:crypto";
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
  it("stay as they are through an update that changes nothing they are made of, such as a known work resolved again", async () => {
    await rolledBack(async (tx) => {
      // A word made again is a new row version, at a new place in the table.
      const rows = (id: string) =>
        tx.query<{ word: string; at: string }>(
          "select word, ctid::text as at from public.catalog_search_words where entry_id = $1 order by word",
          [id],
        );
      const made = await tx.query<{ id: string }>(
        `insert into public.catalog_entries (domain, title, subtitle)
           values ('music', 'Copper orchard', 'Kept'), ('music', 'Velvet canyon', 'Renamed') returning id`,
      );
      const [kept, renamed] = made.map((row) => row.id);
      if (!kept || !renamed) throw new Error("no entries");
      const before = await rows(kept);
      expect(before.map((row) => row.word)).toEqual(["copper", "kept", "orchard"]);

      // One statement: both titles assigned, one of them to itself, and a column outside the search changed on both.
      await tx.query(
        `update public.catalog_entries
            set title = case when id = $2 then 'Silver canyon' else title end,
                platform_links = platform_links || '{"example": "https://example.test/x"}'
          where id = any ($1::uuid[])`,
        [[kept, renamed], renamed],
      );
      expect(await rows(kept)).toEqual(before);
      expect((await rows(renamed)).map((row) => row.word)).toEqual(["canyon", "renamed", "silver"]);

      // The resolver's upsert of a work the catalog already knows, with a draft that adds nothing to it.
      const value = `copper-${randomUUID()}`;
      await tx.query("insert into public.catalog_external_ids (namespace, value, entry_id) values ('test', $2, $1)", [
        kept,
        value,
      ]);
      const entry = async () =>
        (
          await tx.query<{ at: string; platform_links: Record<string, { url: string }> }>(
            "select ctid::text as at, platform_links from public.catalog_entries where id = $1",
            [kept],
          )
        )[0];
      const upsert = async (draft: Record<string, unknown>) =>
        (
          await tx.query<{ id: string }>("select app_private.upsert_catalog_entry($1::jsonb) as id", [
            JSON.stringify({
              domain: "music",
              title: "Copper orchard",
              external_ids: [{ namespace: "test", value }],
              ...draft,
            }),
          ])
        )[0]?.id;
      const stored = await entry();
      expect(await upsert({})).toBe(kept);
      // Nothing to fill: the entry is not rewritten either.
      expect(await entry()).toEqual(stored);
      expect(await rows(kept)).toEqual(before);
      // A link it lacked is filled: the entry changes, its words do not.
      expect(
        await upsert({ platform_links: { deezer: { url: "https://www.deezer.com/track/1", source: "deezer" } } }),
      ).toBe(kept);
      const filled = await entry();
      expect(filled?.at).not.toBe(stored?.at);
      expect(filled?.platform_links).toMatchObject({ deezer: { url: "https://www.deezer.com/track/1" } });
      expect(await rows(kept)).toEqual(before);
      // A new external id alone: the entry as read changes (its external_ids), so its updated_at moves (a new
      // row version: in this one transaction now() does not move); its words do not.
      const ids = [
        { namespace: "test", value },
        { namespace: "test", value: `${value}-2` },
      ];
      expect(await upsert({ external_ids: ids })).toBe(kept);
      expect((await entry())?.at).not.toBe(filled?.at);
      expect(await rows(kept)).toEqual(before);
      const again = await entry();
      expect(await upsert({ external_ids: ids })).toBe(kept);
      expect(await entry()).toEqual(again);

      // A popularity change moves the scores: the words are made again.
      await tx.query("update public.catalog_entries set popularity = 7 where id = $1", [kept]);
      const rescored = await rows(kept);
      expect(rescored.map((row) => row.at)).not.toEqual(before.map((row) => row.at));
      // A domain change moves the words' own domain, which search filters on: made again too.
      await tx.query("update public.catalog_entries set domain = 'books' where id = $1", [kept]);
      const [moved] = await tx.query<{ domains: string[] }>(
        "select array_agg(distinct domain) as domains from public.catalog_search_words where entry_id = $1",
        [kept],
      );
      expect(moved?.domains).toEqual(["books"]);
      expect((await rows(kept)).map((row) => row.at)).not.toEqual(rescored.map((row) => row.at));
    });
  });
});
