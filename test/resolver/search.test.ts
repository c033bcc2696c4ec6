import { describe, expect, it } from "vitest";
import { searchCatalog } from "@/lib/catalog/search-query";
import { asMember } from "@/lib/db";
import { searchHitSchema } from "@/registry/operations/catalog-entry";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { sqlAsService } from "../support/store";
import { invoke } from "../surfaces/agent";
import { ownLetters } from "./support/own-word";

const search = (member: TestMember, query: string) => api("GET", `/search?${query}`, { token: member.token });
const titles = (body: { data: { title: string }[] }) => body.data.map((hit) => hit.title);

describe("GET /search", () => {
  it("puts the exact title first and answers each hit with song_id, domain, creators, artwork and score", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    const response = await search(ada, "q=the%20hobbit");
    expect(response.status).toBe(200);
    expect(response.body.data[0]).toMatchObject({
      title: "The Hobbit",
      domain: "books",
      match: "exact",
      creators: [{ name: "J. R. R. Tolkien", role: "author" }],
      artwork: null,
      score: expect.any(Number),
    });
    expect(response.body.data[0].song_id).toBe(response.body.data[0].id);
    expect(titles(response.body)).toContain("The Hobbit: An Unexpected Journey");
    const scores = response.body.data.map((hit: { score: number }) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("tolerates typos, accents and case", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    expect(titles((await search(ada, "q=Bohemain%20Rapsody")).body)[0]).toBe("Bohemian Rhapsody");
    expect(titles((await search(ada, "q=intersteller")).body)[0]).toBe("Interstellar");
    expect(titles((await search(ada, "q=SAO%20PAULO")).body)[0]).toBe("São Paulo");
    expect(titles((await search(ada, "q=fur%20elise")).body)[0]).toBe("Für Elise");
    expect(titles((await search(ada, "q=Am%C3%A9lie")).body)[0]).toBe("Amélie");
  });

  it("finds entries by creator and filters by domain", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    const byCreator = await search(ada, "q=beyonce&domain=music");
    expect(byCreator.body.data.length).toBeGreaterThanOrEqual(4);
    for (const hit of byCreator.body.data) expect(hit.domain).toBe("music");
    expect(titles(byCreator.body)).toEqual(expect.arrayContaining(["Halo", "Lemonade", "Crazy in Love"]));
    const films = await search(ada, "q=dune&domain=film");
    expect(films.body.data.map((hit: { domain: string }) => hit.domain)).toEqual(["film"]);
  });

  it("pages with an opaque cursor: no duplicates, no gaps, Link header, across every way of ranking", async () => {
    // Entries of a word of its own: the shared catalog changes while other files run (resolver tests
    // delete and resolve again the entries they made), which a walk through common words would meet.
    // They are removed at the end, so a database kept between runs holds no earlier run's. Six distinct
    // letters none of "lantern" or "oie" holds: with a repeated letter, or one shared with the rest of the
    // word, the similarities below shift (the typos' word similarity fell to 0.54, under the close line).
    const own = ownLetters(6, "lanternoie");
    const word = `${own}lantern`;
    const made = await sqlAsService<{ id: string }>(
      `insert into public.catalog_entries (domain, title, subtitle, popularity)
         select 'music', 'Blue ' || $1 || ' ' || substr(md5(g::text), 1, 6), 'Artist ' || g, g % 4
           from generate_series(1, 14) g
         union all
         -- Title candidates (going on from the word inside it), close ones (a typo of the word) and
         -- far ones (the word's first letters: word similarity 0.29, whole-text 0.22).
         select 'music', $1 || 's ' || substr(md5(g::text), 1, 5), 'Artist ' || g, g % 3 from generate_series(1, 5) g
         union all
         select 'music', $2 || ' ' || substr(md5(g::text), 1, 5), null, g % 5 from generate_series(1, 6) g
         union all
         select 'music', $3, null, g % 2 from generate_series(1, 4) g
         returning id`,
      [word, `${own}latnern`, `${own.slice(0, 4)}oie`],
    );
    try {
      const ada = await makeMember({ scopes: ["items:read"] });
      const all = await search(ada, `q=${word}&limit=200`);
      const ids = (body: { data: { id: string }[] }) => body.data.map((hit) => hit.id);
      expect(all.body.data).toHaveLength(29);
      // The one long page is the full ranking's.
      const full = await asMember(ada.id, (tx) => searchCatalog(tx, { query: word, limit: 200, fullRanking: true }));
      expect(ids(all.body)).toEqual(full.hits.map((hit) => hit.id));
      const seen: string[] = [];
      const ways: (string | null)[] = [];
      let after: string | undefined;
      for (let page = 0; page < 100; page++) {
        const response = await search(ada, `q=${word}&limit=3${after ? `&after=${encodeURIComponent(after)}` : ""}`);
        expect(response.status).toBe(200);
        seen.push(...ids(response.body));
        // Which statement ranked the page, as the handler's function call answers it for the same cursor.
        const call = await asMember(ada.id, (tx) => searchCatalog(tx, { query: word, limit: 3, after }));
        expect(call.hits.map((hit) => hit.id)).toEqual(ids(response.body));
        ways.push(call.ranked);
        if (!response.body.has_more) {
          expect(response.body.next_cursor).toBeNull();
          break;
        }
        expect(response.headers.get("link")).toContain("after=");
        after = response.body.next_cursor;
      }
      expect(seen).toEqual(ids(all.body));
      // Full-text hits and title candidates, then the typos (close), then the first letters (far).
      expect(ways).toEqual([...Array(6).fill("words"), "close", "close", "far", "far"]);
    } finally {
      await sqlAsService("delete from public.catalog_entries where id = any($1::uuid[])", [made.map((row) => row.id)]);
    }
  });

  it("refuses a missing or empty q, an unknown domain, a bad cursor and a stray parameter (422)", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    for (const query of [
      "",
      "q=",
      "q=%20%20",
      "q=x&domain=games",
      "q=x&after=bm90LWEtY3Vyc29y",
      "q=x&offset=10",
      "q=x&limit=201",
      "q=x&query=y",
    ]) {
      const response = await search(ada, query);
      expect(response.status, query).toBe(422);
      expect(response.body.code).toBe("invalid_request");
    }
  });

  it("needs items:read", async () => {
    const ada = await makeMember({ scopes: ["items:write"] });
    expect((await search(ada, "q=dune")).status).toBe(403);
  });

  it("answers each page as the ranking gives it: the same hits, fields, order, scores and cursors", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    for (const [q, domain] of [
      ["the", null],
      ["pulp fiction", null],
      ["dune", "film"],
      ["no such words here", null],
    ]) {
      let after: string | undefined;
      for (let page = 0; page < 50; page++) {
        const query = new URLSearchParams({
          q: q ?? "",
          limit: "4",
          ...(domain && { domain }),
          ...(after && { after }),
        });
        const response = await search(ada, query.toString());
        expect(response.status).toBe(200);
        const ranked = await asMember(ada.id, (tx) =>
          searchCatalog(tx, { query: q ?? "", domain, limit: 4, ...(after && { after }) }),
        );
        expect(response.body).toEqual({
          data: ranked.hits.map(({ similarity: _, ...hit }) => hit),
          has_more: ranked.hasMore,
          next_cursor: ranked.nextCursor,
        });
        expect(Object.keys(response.body.data[0] ?? searchHitSchema.shape)).toEqual(Object.keys(searchHitSchema.shape));
        if (!response.body.has_more) break;
        after = response.body.next_cursor;
      }
    }
  });

  it("is the tool `search` with the argument `query`, answering what REST answers", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    const viaTool = await invoke(ada.token, { tool: "search", input: { query: "pulp fiction", limit: 5 } });
    const viaRest = await search(ada, "q=pulp%20fiction&limit=5");
    expect(viaTool.status).toBe(200);
    expect(viaTool.body.ok).toBe(true);
    expect(viaTool.body.result).toEqual(viaRest.body);
    const wrongArgument = await invoke(ada.token, { tool: "search", input: { q: "pulp fiction" } });
    expect(wrongArgument.body.ok).toBe(false);
  });
});
