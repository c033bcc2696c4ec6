import { beforeAll, describe, expect, it } from "vitest";
import { asService, getDb } from "@/lib/db";
import { capabilityByTool } from "@/registry/capabilities";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, tokenFor } from "../support/factories";
import { invoke } from "./agent";

describe("browser directives", () => {
  // The first file in a worker opens (and migrates) its database; keep that out of the test timeouts.
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("play_song resolves a catalog entry into a play_media directive for the browser", async () => {
    const ada = await makeMember();
    const songId = await makeCatalogEntry("Blue in Green");
    const res = await invoke(ada.token, { tool: "play_song", input: { song_id: songId } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["ok", "directive"]);
    const { directive } = res.body;
    // An entry with no link, id or preview cannot play: it says so, and never offers a search page as media.
    expect(directive).toMatchObject({
      type: "play_media",
      title: "Blue in Green",
      song_id: songId,
      playable: false,
      url: null,
      embeds: [],
      preview_url: null,
    });
    expect(directive.reason).toMatch(/POST \/resolve/);
    expect(capabilityByTool.get("play_song")?.output.safeParse(directive).success).toBe(true);
  });

  it("play_song prefers a platform that plays in the browser, and carries the catalog's artwork", async () => {
    const ada = await makeMember();
    const songId = await makeCatalogEntry("Kind of Blue");
    await asService((tx) =>
      tx.query(
        `update public.catalog_entries set artwork = $2::jsonb, platform_links = $3::jsonb,
           canonical_url = 'https://www.example.org/kind-of-blue' where id = $1`,
        [
          songId,
          JSON.stringify({ url: "https://img.example.org/kob.jpg", width: 600, height: 600, source: "itunes" }),
          JSON.stringify({
            spotify: { url: "https://open.spotify.com/album/1weenld61qoidwYuZ1GESA", source: "odesli" },
            youtube: { url: "https://www.youtube.com/watch?v=kbxtYqA6ypM", source: "odesli" },
          }),
        ],
      ),
    );
    const res = await invoke(ada.token, { tool: "play_song", input: { song_id: songId } });
    expect(res.body.directive).toEqual({
      type: "play_media",
      playable: true,
      reason: null,
      url: "https://www.youtube.com/watch?v=kbxtYqA6ypM",
      title: "Kind of Blue",
      artwork: "https://img.example.org/kob.jpg",
      song_id: songId,
      // The Spotify link is an album: no track player for it.
      embeds: [
        {
          platform: "youtube",
          embed_url: "https://www.youtube-nocookie.com/embed/kbxtYqA6ypM",
          open_url: "https://www.youtube.com/watch?v=kbxtYqA6ypM",
        },
      ],
      preview_url: null,
      links: {
        spotify: "https://open.spotify.com/album/1weenld61qoidwYuZ1GESA",
        youtube: "https://www.youtube.com/watch?v=kbxtYqA6ypM",
      },
    });
  });

  it("play_song plays a given link as is, and needs exactly one of song_id or url", async () => {
    const ada = await makeMember();
    // A track no test resolves into the shared catalog (a known one would play as that entry).
    const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const trackId = Array.from(crypto.getRandomValues(new Uint8Array(22)), (byte) => base62[byte % 62]).join("");
    const url = `https://open.spotify.com/track/${trackId}`;
    const res = await invoke(ada.token, { tool: "play_song", input: { url } });
    expect(res.body.directive).toEqual({
      type: "play_media",
      playable: true,
      reason: null,
      url,
      title: null,
      artwork: null,
      song_id: null,
      embeds: [{ platform: "spotify", embed_url: `https://open.spotify.com/embed/track/${trackId}`, open_url: url }],
      preview_url: null,
      links: { spotify: url },
    });
    const both = await invoke(ada.token, { tool: "play_song", input: { url, song_id: crypto.randomUUID() } });
    expect(both.status).toBe(422);
    expect((await invoke(ada.token, { tool: "play_song", input: {} })).status).toBe(422);
    const unknown = await invoke(ada.token, { tool: "play_song", input: { song_id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    const script = await invoke(ada.token, { tool: "play_song", input: { url: "javascript:alert(1)" } });
    expect(script.status).toBe(422);
  });

  it("play_song carries a player per platform and the catalog's preview", async () => {
    const ada = await makeMember();
    const songId = await makeCatalogEntry("Embeds everywhere");
    await asService((tx) =>
      tx.query(`update public.catalog_entries set platform_links = $2::jsonb, attributes = $3::jsonb where id = $1`, [
        songId,
        JSON.stringify({
          soundcloud: { url: "https://soundcloud.com/artist/a-track" },
          deezer: { url: "https://www.deezer.com/track/138127073" },
          apple_music: { url: "https://music.apple.com/us/song/kitchen/1443109064" },
          youtube: { url: "https://youtu.be/w3LJ2bDvDJs" },
          spotify: { url: "https://open.spotify.com/track/0Jcij1eWd5bDMU5iPbxe2i" },
          tidal: { url: "https://tidal.com/browse/track/67784545" },
        }),
        JSON.stringify({ preview_url: "https://audio.example.org/preview.m4a" }),
      ]),
    );
    const { directive } = (await invoke(ada.token, { tool: "play_song", input: { song_id: songId } })).body;
    expect(directive.embeds.map((e: { embed_url: string }) => e.embed_url)).toEqual([
      "https://open.spotify.com/embed/track/0Jcij1eWd5bDMU5iPbxe2i",
      "https://www.youtube-nocookie.com/embed/w3LJ2bDvDJs",
      "https://embed.music.apple.com/us/song/kitchen/1443109064",
      "https://widget.deezer.com/widget/auto/track/138127073",
      `https://w.soundcloud.com/player/?url=${encodeURIComponent("https://soundcloud.com/artist/a-track")}`,
    ]);
    expect(directive.preview_url).toBe("https://audio.example.org/preview.m4a");
    expect(directive.links.tidal).toBe("https://tidal.com/browse/track/67784545");
    expect(capabilityByTool.get("play_song")?.output.safeParse(directive).success).toBe(true);
  });

  it("play_song: a phrase as song_id is a clear 422 naming query; query plays the best catalog match", async () => {
    const ada = await makeMember();
    const phrase = await invoke(ada.token, { tool: "play_song", input: { song_id: "Kitchen Kid Cudi" } });
    expect(phrase.status).toBe(422);
    expect(JSON.stringify(phrase.body)).toContain("send the phrase as query");
    const found = await invoke(ada.token, { tool: "play_song", input: { query: "Kitchen Kid Cudi" } });
    expect(found.status).toBe(200);
    expect(found.body.directive.title).toBe("Kitchen");
    expect(found.body.directive.embeds[0].embed_url).toBe(
      "https://open.spotify.com/embed/track/0Jcij1eWd5bDMU5iPbxe2i",
    );
    const none = await invoke(ada.token, { tool: "play_song", input: { query: "zzqx no such song qqzz" } });
    expect(none.status).toBe(404);
    expect(JSON.stringify(none.body)).toContain("POST /resolve");
    const two = await invoke(ada.token, {
      tool: "play_song",
      input: { query: "Kitchen", url: "https://youtu.be/w3LJ2bDvDJs" },
    });
    expect(two.status).toBe(422);
  });

  it("listen and open_url answer their directives", async () => {
    const ada = await makeMember();
    const listen = await invoke(ada.token, { tool: "listen", input: { lang: "de-DE" } });
    expect(listen.body).toEqual({ ok: true, directive: { type: "start_listening", lang: "de-DE" } });
    const plain = await invoke(ada.token, { tool: "listen", input: {} });
    expect(plain.body.directive).toEqual({ type: "start_listening", lang: null });
    const open = await invoke(ada.token, { tool: "open_url", input: { url: "https://example.org/a?b=1" } });
    expect(open.body).toEqual({ ok: true, directive: { type: "open_url", url: "https://example.org/a?b=1" } });
    expect((await invoke(ada.token, { tool: "open_url", input: { url: "file:///etc/passwd" } })).status).toBe(422);
  });

  it("go through the same pipeline: token and scope are checked, and there is no REST route", async () => {
    const ada = await makeMember();
    expect((await invoke(undefined, { tool: "listen", input: {} })).status).toBe(401);
    const narrow = await tokenFor(ada.id, ["todos:read"]);
    expect((await invoke(narrow, { tool: "listen", input: {} })).status).toBe(403);
    expect(capabilityByTool.get("listen")?.http).toBeUndefined();
    expect((await api("POST", "/listen", { token: ada.token, body: {} })).status).toBe(404);
  });
});
