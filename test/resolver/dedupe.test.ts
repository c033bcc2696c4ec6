import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { sqlAsMember, sqlAsService } from "../support/store";

describe("catalog dedupe", () => {
  it("answers one song_id when members resolve the same new URL at the same time", async () => {
    const members = await Promise.all(Array.from({ length: 6 }, () => makeMember({ scopes: ["items:read"] })));
    const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const urls = [
      `https://www.deezer.com/track/${id}`,
      `https://deezer.com/en/track/${id}?utm_source=deezer`,
      `https://www.deezer.com/fr/track/${id}/`,
    ];
    const responses = await Promise.all(
      members.map((member, i) =>
        api("POST", "/resolve", { token: member.token, body: { input: urls[i % urls.length] } }),
      ),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const songIds = new Set(responses.map((response) => response.body.song_id));
    expect(songIds.size).toBe(1);
    const rows = await sqlAsService<{ n: number }>(
      "select count(*)::int as n from public.catalog_external_ids where namespace = 'deezer:track' and value = $1",
      [id],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("never lets a member write the catalog directly", async () => {
    const member = await makeMember();
    await expect(
      sqlAsMember(member.id, "insert into public.catalog_entries (domain, title) values ('music', 'Sneaky')"),
    ).rejects.toThrow(/permission denied/);
    await expect(
      sqlAsMember(
        member.id,
        "insert into public.catalog_external_ids (namespace, value, entry_id) values ('x', 'y', gen_random_uuid())",
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("lets no member call the catalog's write function: the resolver writes as the service", async () => {
    const member = await makeMember();
    await expect(
      sqlAsMember(member.id, "select app_private.upsert_catalog_entry($1::jsonb)", [
        JSON.stringify({ domain: "music", title: "Sneaky", external_ids: [{ namespace: "x", value: "sneaky" }] }),
      ]),
    ).rejects.toThrow(/permission denied/);
  });

  it("validates drafts in the write function", async () => {
    const upsert = (draft: unknown) =>
      sqlAsService("select app_private.upsert_catalog_entry($1::jsonb)", [JSON.stringify(draft)]);
    await expect(upsert({ domain: "music", title: "No ids" })).rejects.toThrow(/external ids/);
    await expect(
      upsert({ domain: "games", title: "Bad", external_ids: [{ namespace: "x", value: "1" }] }),
    ).rejects.toThrow(/check constraint/);
  });
});
