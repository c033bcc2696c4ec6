import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { forgetResolved } from "./support/reset";

const resolve = (member: TestMember, input: string) =>
  api("POST", "/resolve", { token: member.token, body: { input } });
const unique = () => Math.random().toString(36).slice(2, 10);

async function addToNewCollection(member: TestMember, songId: string, type: string) {
  const collection = await api("POST", "/collections", {
    token: member.token,
    body: { name: `Faves ${unique()}`, type },
  });
  expect(collection.status, JSON.stringify(collection.body)).toBe(201);
  return api("POST", "/items", { token: member.token, body: { collection_id: collection.body.id, song_id: songId } });
}

describe("POST /resolve (offline)", () => {
  // Opening and migrating the database can take a while on a busy machine: do it in a hook.
  beforeAll(async () => {
    await getDb();
    await forgetResolved();
  });

  it("answers a seeded Spotify track by id, with creators, platform links and resolution", async () => {
    const ada = await makeMember();
    const response = await resolve(
      ada,
      "https://open.spotify.com/intl-de/track/0Jcij1eWd5bDMU5iPbxe2i?si=abc123&utm_source=copy-link",
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      domain: "music",
      kind: "track",
      title: "Kitchen",
      creators: [{ name: "Kid Cudi", role: "artist" }],
      platform_links: {
        spotify: { url: "https://open.spotify.com/track/0Jcij1eWd5bDMU5iPbxe2i" },
        deezer: expect.any(Object),
      },
      external_ids: expect.objectContaining({ "spotify:track": "0Jcij1eWd5bDMU5iPbxe2i", "apple:song": "1443109064" }),
      partial: false,
      alternatives: [],
      resolution: {
        input_type: "url",
        matched_by: "catalog",
        platform: "spotify",
        confidence: 1,
        partial: false,
        offline: true,
      },
    });
    expect(response.body.song_id).toBe(response.body.id);
    expect(response.headers.get("ratelimit-policy")).toContain("resolver");
  });

  it("returns a song_id that POST /items accepts directly, for every domain", async () => {
    const ada = await makeMember();
    for (const input of [
      "tt0133093",
      "https://openlibrary.org/works/OL45804W/Fantastic_Mr_Fox",
      "https://maps.google.com/?cid=8167675777476425407",
      "https://paulgraham.com/avg.html?utm_source=hn",
      "eiffel tower",
    ]) {
      const resolved = await resolve(ada, input);
      expect(resolved.status, input).toBe(200);
      const item = await addToNewCollection(ada, resolved.body.song_id, resolved.body.domain);
      expect(item.status, `${input}: ${JSON.stringify(item.body)}`).toBe(201);
      expect(item.body.song_id).toBe(resolved.body.song_id);
    }
  });

  it("stores an unknown URL as a partial entry built from the URL, and finds it again", async () => {
    const ada = await makeMember();
    const slug = `a-film-nobody-knows-${unique()}`;
    const first = await resolve(ada, `https://letterboxd.com/film/${slug}-1999/`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      domain: "film",
      kind: "movie",
      release_date: "1999",
      partial: true,
      platform_links: { letterboxd: { url: `https://letterboxd.com/film/${slug}-1999/` } },
      resolution: { matched_by: "url_parser", partial: true, confidence: 0.5, offline: true },
    });
    expect(first.body.title.toLowerCase()).toBe(slug.replace(/-/g, " "));
    const again = await resolve(ada, `https://letterboxd.com/someone/film/${slug}-1999/?utm_source=share`);
    expect(again.body).toMatchObject({ song_id: first.body.song_id, resolution: { matched_by: "catalog" } });
  });

  it("matches a URL the seed knows under another id by its title or position, then by id", async () => {
    const ada = await makeMember();
    const film = await resolve(ada, "https://letterboxd.com/film/the-matrix/");
    expect(film.body).toMatchObject({
      title: "The Matrix",
      partial: false,
      external_ids: expect.objectContaining({ imdb: "tt0133093", "letterboxd:film": "the-matrix" }),
      platform_links: { imdb: expect.any(Object), letterboxd: { url: "https://letterboxd.com/film/the-matrix/" } },
      resolution: { matched_by: "catalog_hints", confidence: 0.9 },
    });
    const again = await resolve(ada, "https://letterboxd.com/film/the-matrix/?utm_medium=share");
    expect(again.body).toMatchObject({
      song_id: film.body.song_id,
      resolution: { matched_by: "catalog", confidence: 1 },
    });
    const pin =
      "https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2918977,17z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813";
    const place = await resolve(ada, pin);
    expect(place.body).toMatchObject({
      title: "Eiffel Tower",
      subtitle: "Paris, France",
      resolution: { matched_by: "catalog_hints" },
    });
    expect(place.body.external_ids).toMatchObject({
      wikidata: "Q243",
      "gmaps:cid": BigInt("0x8ddca9ee380ef7e0").toString(),
    });
    // A name that does not fit the position makes a new (partial) place instead of a wrong merge.
    const elsewhere = await resolve(
      ada,
      "https://www.google.com/maps/place/Eiffel+Tower+Replica/@36.1124,-115.1707,17z/",
    );
    expect(elsewhere.body).toMatchObject({ partial: true, title: "Eiffel Tower Replica" });
    expect(elsewhere.body.song_id).not.toBe(place.body.song_id);
  });

  it("cleans and normalises article URLs so spellings of one page are one entry", async () => {
    const ada = await makeMember();
    const path = `/news/${unique()}/the-long-read.html`;
    const first = await resolve(ada, `https://www.example.com${path}?utm_source=twitter&fbclid=abc#comments`);
    const second = await resolve(ada, `http://m.example.com${path}?gclid=xyz`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      domain: "articles",
      kind: "article",
      title: "The Long Read",
      subtitle: "example.com",
    });
    expect(first.body.canonical_url).toBe(`https://www.example.com${path}`);
    expect(first.body.external_ids.url).toBe(`https://example.com${path}`);
    expect(second.body.song_id).toBe(first.body.song_id);
  });

  it("reads coordinates and a name from a Google Maps place URL", async () => {
    const ada = await makeMember();
    const lat = (40 + Math.random()).toFixed(7);
    const response = await resolve(
      ada,
      `https://www.google.com/maps/place/Caf%C3%A9+Test+${unique()}/@${lat},-3.7,17z/data=!3m1!4b1`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      domain: "places",
      kind: "place",
      attributes: { lat: Number(lat), lng: -3.7 },
    });
    expect(response.body.title).toMatch(/^Café Test /);
  });

  it("matches a phrase against the catalog: a clear exact title has no alternatives", async () => {
    const ada = await makeMember();
    const response = await resolve(ada, "Bohemian Rhapsody");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      title: "Bohemian Rhapsody",
      creators: [{ name: "Queen" }],
      alternatives: [],
      resolution: { input_type: "phrase", matched_by: "catalog_search", confidence: 1 },
    });
  });

  it("returns up to five alternatives when a phrase is ambiguous", async () => {
    const ada = await makeMember();
    const dune = await resolve(ada, "dune");
    expect(dune.status).toBe(200);
    const domains = [dune.body.domain, ...dune.body.alternatives.map((a: { domain: string }) => a.domain)];
    expect(domains).toEqual(expect.arrayContaining(["film", "books"]));
    expect(dune.body.alternatives.length).toBeGreaterThan(0);
    expect(dune.body.alternatives.length).toBeLessThanOrEqual(5);
    expect(dune.body.resolution.confidence).toBeLessThan(1);
    const hinted = await resolve(ada, "book: dune");
    expect(hinted.body).toMatchObject({ domain: "books", title: "Dune", creators: [{ name: "Frank Herbert" }] });
  });

  it("is typo-, accent- and case-tolerant for phrases", async () => {
    const ada = await makeMember();
    expect((await resolve(ada, "bohemain rapsody")).body.title).toBe("Bohemian Rhapsody");
    expect((await resolve(ada, "AMELIE")).body.title).toBe("Amélie");
    expect((await resolve(ada, "godel escher bach")).body.title).toBe("Gödel, Escher, Bach");
  });

  it("answers 404 for a phrase nothing matches, 422 for short links offline, and never a 500", async () => {
    const ada = await makeMember();
    expect((await resolve(ada, "qxzvw jjkkq plorf")).status).toBe(404);
    const short = await resolve(ada, "https://spotify.link/AbCdEfGhIj");
    expect(short.status).toBe(422);
    expect(short.body.errors[0].code).toBe("needs_network");
    expect((await resolve(ada, "   ")).status).toBe(422);
    expect((await api("POST", "/resolve", { token: ada.token, body: { input: "x", extra: 1 } })).status).toBe(422);
  });

  it("needs items:read", async () => {
    const ada = await makeMember({ scopes: ["collections:read"] });
    const response = await resolve(ada, "tt0133093");
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("insufficient_scope");
  });
});
