import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asService, getDb } from "@/lib/db";
import { capabilityByTool } from "@/registry/capabilities";
import { makeMember } from "../support/factories";
import { invoke } from "./agent";

/** Kitchen (Kid Cudi) is seeded with its Spotify, Apple Music, Deezer and YouTube ids. */
const KITCHEN = {
  youtube: "https://youtu.be/w3LJ2bDvDJs",
  apple: "https://music.apple.com/us/song/kitchen/1443109064",
  deezer: "https://www.deezer.com/en/track/138127073",
};

let server: http.Server;
let base = "";
const savedAllow = process.env.RESOLVER_ALLOW_PRIVATE_HOSTS;

describe("play_song: songs that play", () => {
  beforeAll(async () => {
    await getDb();
    // A stand-in for a member's own audio host: a WAV, a page, and a redirect to the WAV.
    server = http.createServer((req, res) => {
      if (req.url === "/tone.wav") res.writeHead(200, { "content-type": "audio/wav", "content-length": "4" });
      else if (req.url === "/moved") res.writeHead(302, { location: "/tone.wav" });
      else if (req.url === "/no-head.mp3" && req.method === "HEAD") res.writeHead(405);
      else if (req.url === "/no-head.mp3") res.writeHead(206, { "content-type": "audio/mpeg" });
      else res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(req.method === "HEAD" ? undefined : "RIFF");
    });
    await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
    // Tool inputs take host names, not IP literals; localhost is exempted from the SSRF guard here only.
    base = `http://localhost:${(server.address() as AddressInfo).port}`;
    process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = "localhost";
  }, 180_000);

  afterAll(async () => {
    if (savedAllow === undefined) delete process.env.RESOLVER_ALLOW_PRIVATE_HOSTS;
    else process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = savedAllow;
    await new Promise((resolve) => server.close(resolve));
  });

  it("a link of a work the catalog knows names the song and plays that platform first", async () => {
    const ada = await makeMember();
    const [kitchen] = await asService((tx) =>
      tx.query<{ id: string }>(
        "select entry_id as id from public.catalog_external_ids where namespace = 'spotify:track' and value = '0Jcij1eWd5bDMU5iPbxe2i'",
      ),
    );
    expect(kitchen).toBeDefined();
    for (const [platform, url] of [
      ["youtube", KITCHEN.youtube],
      ["apple_music", KITCHEN.apple],
      ["deezer", KITCHEN.deezer],
    ] as const) {
      const res = await invoke(ada.token, { tool: "play_song", input: { url } });
      expect(res.status).toBe(200);
      const { directive } = res.body;
      expect(directive).toMatchObject({ title: "Kitchen", song_id: kitchen?.id, playable: true, url });
      expect(directive.embeds[0].platform).toBe(platform);
      // The catalog's other players come along, built from its ids.
      expect(directive.embeds.map((e: { platform: string }) => e.platform)).toContain("spotify");
      expect(directive.links.spotify).toBe("https://open.spotify.com/track/0Jcij1eWd5bDMU5iPbxe2i");
      expect(capabilityByTool.get("play_song")?.output.safeParse(directive).success).toBe(true);
    }
  });

  it("every seeded song either carries a player built from a platform id or a preview, or says why not; never a search page", async () => {
    const ada = await makeMember();
    const songs = await asService((tx) =>
      tx.query<{ id: string; title: string; ids: number }>(
        `select c.id, c.title,
                (select count(*)::int from public.catalog_external_ids x
                  where x.entry_id = c.id and x.namespace in ('spotify:track', 'youtube:video', 'apple:song', 'deezer:track', 'soundcloud:permalink')) as ids
           from public.catalog_external_ids s join public.catalog_entries c on c.id = s.entry_id
          where s.namespace = 'seed' and s.value like 'music/track/%'`,
      ),
    );
    expect(songs.length).toBeGreaterThanOrEqual(28);
    let playable = 0;
    for (const song of songs) {
      const { directive } = (await invoke(ada.token, { tool: "play_song", input: { song_id: song.id } })).body;
      expect(capabilityByTool.get("play_song")?.output.safeParse(directive).success).toBe(true);
      expect(directive.playable).toBe(directive.embeds.length > 0 || directive.preview_url !== null);
      if (directive.playable) playable++;
      else expect(directive.reason).toEqual(expect.any(String));
      // A song with a playable platform id always plays.
      if (song.ids > 0) expect(directive.embeds.length, song.title).toBeGreaterThan(0);
      for (const link of [directive.url, ...Object.values(directive.links)]) {
        if (link) expect(String(link)).not.toMatch(/\/search\b|[?&]q=/);
      }
    }
    expect(playable).toBe(songs.filter((song) => song.ids > 0).length);
  });

  it("a link of no known platform plays only when it is an audio file, checked by its Content-Type", async () => {
    const ada = await makeMember();
    for (const path of ["/tone.wav", "/moved", "/no-head.mp3"]) {
      const res = await invoke(ada.token, { tool: "play_song", input: { url: `${base}${path}` } });
      expect(res.status, path).toBe(200);
      expect(res.body.directive).toMatchObject({ playable: true, embeds: [], song_id: null });
      expect(res.body.directive.preview_url).toBe(path === "/moved" ? `${base}/tone.wav` : `${base}${path}`);
    }
    const page = await invoke(ada.token, { tool: "play_song", input: { url: `${base}/page` } });
    expect(page.status).toBe(422);
    expect(page.body.error.errors[0]).toMatchObject({ pointer: "/url", code: "not_audio" });
    expect(page.body.error.errors[0].message).toContain("text/html");
  });

  it("refuses plain http, private addresses and unreachable hosts for a link of no known platform", async () => {
    const ada = await makeMember();
    process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = "";
    try {
      for (const url of [
        `${base}/tone.wav`,
        `${base.replace("http:", "https:")}/tone.wav`,
        "https://127.0.0.1/a.mp3",
        "https://10.1.2.3/a.mp3",
        "https://[::ffff:127.0.0.1]/a.mp3",
        "https://audio.invalid/a.mp3",
      ]) {
        const res = await invoke(ada.token, { tool: "play_song", input: { url } });
        expect(res.status, url).toBe(422);
        expect(res.body.error.errors[0].code).toBe("not_audio");
      }
    } finally {
      process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = "localhost";
    }
  });

  it("a track link the catalog does not know plays from its own id; a page with no player says so with its link", async () => {
    const ada = await makeMember();
    const track = await invoke(ada.token, {
      tool: "play_song",
      input: { url: "https://www.deezer.com/track/3135556" },
    });
    expect(track.body.directive).toMatchObject({
      playable: true,
      title: null,
      song_id: null,
      embeds: [{ platform: "deezer", embed_url: "https://widget.deezer.com/widget/auto/track/3135556" }],
    });
    const album = await invoke(ada.token, {
      tool: "play_song",
      input: { url: "https://open.spotify.com/album/1weenld61qoidwYuZ1GESA" },
    });
    expect(album.status).toBe(200);
    expect(album.body.directive).toMatchObject({ playable: false, embeds: [], preview_url: null });
    expect(album.body.directive.reason).toMatch(/no player/);
    expect(album.body.directive.links.spotify).toMatch(/^https:\/\/open\.spotify\.com\/album\//);
  });
});
