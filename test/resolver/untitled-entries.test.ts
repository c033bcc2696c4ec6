import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { sqlAsService } from "../support/store";

const resolve = (member: TestMember, input: string) =>
  api("POST", "/resolve", { token: member.token, body: { input } });
/** A 22-character base62 id the seed cannot know, fresh on every run (the catalog outlives runs on a server database). */
const spotifyId = () => `Untitled${Math.random().toString(36).slice(2, 12).padEnd(14, "x")}`.slice(0, 22);
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

describe("no invented titles (offline)", () => {
  beforeAll(async () => {
    await getDb();
  });

  it("answers an unknown Spotify or Deezer track as partial, untitled, with platform, identifier and link", async () => {
    const ada = await makeMember();
    const id = spotifyId();
    const spotify = await resolve(ada, `https://open.spotify.com/track/${id}?si=x`);
    expect(spotify.status, JSON.stringify(spotify.body)).toBe(200);
    expect(spotify.body).toMatchObject({
      domain: "music",
      kind: "track",
      title: null,
      creators: [],
      partial: true,
      platform_links: { spotify: { url: `https://open.spotify.com/track/${id}` } },
      external_ids: { "spotify:track": id },
      resolution: {
        matched_by: "url_parser",
        platform: "spotify",
        namespace: "spotify:track",
        value: id,
        partial: true,
      },
    });
    const deezerId = `9${digits(8)}`;
    const deezer = await resolve(ada, `https://www.deezer.com/track/${deezerId}`);
    expect(deezer.body).toMatchObject({
      title: null,
      partial: true,
      resolution: { platform: "deezer", value: deezerId },
    });
    // Stored untitled, not only answered so.
    const [row] = await sqlAsService<{ title: string | null }>(
      "select title from public.catalog_entries where id = $1",
      [spotify.body.song_id],
    );
    expect(row?.title).toBeNull();
  });

  it("leaves a bare unknown ISBN, bare coordinates and a host-only page untitled", async () => {
    const ada = await makeMember();
    const coords = `${(10 + Math.random()).toFixed(5)}, ${(20 + Math.random()).toFixed(5)}`;
    for (const input of [coords, `https://site-${digits(6)}.example.org/`]) {
      const response = await resolve(ada, input);
      expect(response.status, input).toBe(200);
      expect(response.body, input).toMatchObject({ title: null, partial: true });
    }
    const page = await resolve(ada, `https://site-${digits(6)}.example.org/`);
    expect(page.body.subtitle).toMatch(/^site-\d{6}\.example\.org$/);
  });

  it("lets a member save an untitled entry: the item shows its own title or none, never an invented one", async () => {
    const ada = await makeMember();
    const resolved = await resolve(ada, `https://open.spotify.com/track/${spotifyId()}`);
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "Later", type: "music" } });
    const item = await api("POST", "/items", {
      token: ada.token,
      body: { collection_id: collection.body.id, song_id: resolved.body.song_id },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect(item.body).toMatchObject({ song_id: resolved.body.song_id, title: null });
    const named = await api("POST", "/items", {
      token: ada.token,
      body: { collection_id: collection.body.id, song_id: resolved.body.song_id, title: "That song from the café" },
    });
    expect(named.body.title).toBe("That song from the café");
  });

  it("a later draft that names an untitled entry gives it its title, under the same song_id", async () => {
    const ada = await makeMember();
    const name = `Place ${digits(6)}`;
    const lat = (30 + Math.random()).toFixed(5);
    const bare = await resolve(ada, `${lat}, 4.50000`);
    expect(bare.body.title).toBeNull();
    const named = await resolve(ada, `https://www.google.com/maps/place/${name.replace(/ /g, "+")}/@${lat},4.5,17z`);
    expect(named.body).toMatchObject({ song_id: bare.body.song_id, title: name, partial: true });
  });
});

describe("URL classification (offline)", () => {
  it("classes Google Maps searches as places named by the search, one entry per search", async () => {
    const ada = await makeMember();
    const name = `Tower ${digits(6)}`;
    const first = await resolve(ada, `https://maps.google.com/?q=${name.replace(/ /g, "+")}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      domain: "places",
      kind: "place",
      title: name,
      partial: true,
      resolution: { platform: "google_maps", namespace: "gmaps:query" },
    });
    const again = await resolve(ada, `https://www.google.com/maps/place/${name.toLowerCase().replace(/ /g, "+")}/`);
    expect(again.body).toMatchObject({ song_id: first.body.song_id, domain: "places" });
    const eiffel = await resolve(ada, "https://maps.google.com/?q=Eiffel+Tower");
    expect(eiffel.body).toMatchObject({ domain: "places", title: "Eiffel Tower" });
  });

  it("titles a Goodreads link from its slug properly", async () => {
    const ada = await makeMember();
    const response = await resolve(
      ada,
      `https://www.goodreads.com/book/show/9${digits(7)}.Harry_Potter_and_the_Sorcerer_s_Stone`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      domain: "books",
      title: "Harry Potter and the Sorcerer's Stone",
      partial: true,
    });
  });

  it("answers 422 unsupported_scheme for ftp:, javascript: and other non-http(s) links", async () => {
    const ada = await makeMember();
    for (const input of [
      "ftp://example.com/song.mp3",
      "javascript:alert(1)",
      "data:text/html,<b>x</b>",
      "file:///etc/passwd",
    ]) {
      const response = await resolve(ada, input);
      expect(response.status, input).toBe(422);
      expect(response.body.errors?.[0]?.code, input).toBe("unsupported_scheme");
    }
  });
});
