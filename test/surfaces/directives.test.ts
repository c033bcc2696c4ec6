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
    expect(directive).toMatchObject({ type: "play_media", title: "Blue in Green", song_id: songId });
    expect(directive.url).toMatch(/^https:\/\//);
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
      url: "https://www.youtube.com/watch?v=kbxtYqA6ypM",
      title: "Kind of Blue",
      artwork: "https://img.example.org/kob.jpg",
      song_id: songId,
    });
  });

  it("play_song plays a given link as is, and needs exactly one of song_id or url", async () => {
    const ada = await makeMember();
    const url = "https://open.spotify.com/track/4u7EnebtmKWzUH433cf5Qv";
    const res = await invoke(ada.token, { tool: "play_song", input: { url } });
    expect(res.body.directive).toEqual({ type: "play_media", url, title: null, artwork: null, song_id: null });
    const both = await invoke(ada.token, { tool: "play_song", input: { url, song_id: crypto.randomUUID() } });
    expect(both.status).toBe(422);
    expect((await invoke(ada.token, { tool: "play_song", input: {} })).status).toBe(422);
    const unknown = await invoke(ada.token, { tool: "play_song", input: { song_id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    const script = await invoke(ada.token, { tool: "play_song", input: { url: "javascript:alert(1)" } });
    expect(script.status).toBe(422);
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
