import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember } from "../support/factories";
import { mint, storagePut, uploaded, useLocalStorage } from "./support/storage";

let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

const BYTES = "\x89PNG fake image bytes";

describe("local storage: mint → PUT → use", () => {
  it("stores the bytes once and uses the key on a profile, a message and an item", async () => {
    const ada = await makeMember({ plan: "pro" });
    const minted = await mint(ada.token, "avatar", "image/png", Buffer.byteLength(BYTES));
    const put = await storagePut(minted.url, BYTES, minted.headers);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key: minted.key, size: Buffer.byteLength(BYTES), content_type: "image/png" });
    expect(put.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    const file = path.join(storage.dir, minted.key);
    expect(fs.readFileSync(file, "utf8")).toBe(BYTES);
    expect(fs.readdirSync(path.join(storage.dir, ".incoming"))).toEqual([]);

    const profile = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: minted.key } });
    expect(profile.status).toBe(200);
    expect(profile.body.avatar_key).toBe(minted.key);

    const bob = await makeMember();
    await api("PATCH", "/profile", { token: bob.token, body: { attachment_consent: "everyone" } });
    const attachment = await uploaded(ada.token, "attachment", "%PDF-1.7 tiny", "application/pdf");
    const message = await api("POST", "/messages", {
      token: ada.token,
      body: { recipient_id: bob.id, body: "Here it is", attachment_key: attachment },
    });
    expect(message.status).toBe(201);
    expect(message.body.attachment_key).toBe(attachment);

    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "Art", type: "music" } });
    const artwork = await uploaded(ada.token, "artwork");
    const item = await api("POST", "/items", {
      token: ada.token,
      body: { collection_id: collection.body.id, song_id: await makeCatalogEntry(), artwork_key: artwork },
    });
    expect(item.status).toBe(201);
    expect(item.body.artwork_key).toBe(artwork);
    const cleared = await api("PATCH", `/items/${item.body.id}`, { token: ada.token, body: { artwork_key: null } });
    expect(cleared.body.artwork_key).toBeNull();
  });

  it("still applies attachment consent to an uploaded attachment", async () => {
    const ada = await makeMember({ plan: "pro" });
    const bob = await makeMember();
    await api("PATCH", "/profile", { token: bob.token, body: { attachment_consent: "nobody" } });
    const key = await uploaded(ada.token, "attachment");
    const message = await api("POST", "/messages", {
      token: ada.token,
      body: { recipient_id: bob.id, body: "Look", attachment_key: key },
    });
    expect(message.status).toBe(403);
    expect(message.body.reason.message).toMatch(/attachment consent: nobody/);
  });
});

describe("local storage: keys that may not be used", () => {
  const refusedAvatar = async (token: string, key: string, why: RegExp) => {
    const response = await api("PATCH", "/profile", { token, body: { avatar_key: key } });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("write_refused");
    expect(response.body.reason).toMatchObject({ sqlstate: "42501" });
    expect(response.body.reason.message).toMatch(why);
  };

  it("refuses a key that does not exist, is not uploaded yet, is another member's, or has another purpose", async () => {
    const ada = await makeMember({ plan: "pro" });
    const eve = await makeMember({ plan: "pro" });
    await refusedAvatar(ada.token, "avatar/00000000-0000-4000-8000-000000000000", /does not name an upload/);
    await refusedAvatar(ada.token, "../../etc/passwd", /does not name an upload/);
    const pending = await mint(ada.token, "avatar", "image/png", 10);
    await refusedAvatar(ada.token, pending.key, /has not been uploaded yet/);
    const evesKey = await uploaded(eve.token, "avatar");
    await refusedAvatar(ada.token, evesKey, /does not name an upload of this member/);
    const artwork = await uploaded(ada.token, "artwork");
    await refusedAvatar(ada.token, artwork, /minted for artwork, not avatar/);
  });

  it("refuses another member's attachment and a wrong-purpose artwork key", async () => {
    const ada = await makeMember({ plan: "pro" });
    const eve = await makeMember({ plan: "pro" });
    await api("PATCH", "/profile", { token: ada.token, body: { attachment_consent: "everyone" } });
    const evesAttachment = await uploaded(eve.token, "attachment");
    const message = await api("POST", "/messages", {
      token: ada.token,
      body: { recipient_id: eve.id, body: "Mine now", attachment_key: evesAttachment },
    });
    expect(message.status).toBe(403);
    expect(message.body.reason.message).toMatch(/does not name an upload of this member/);
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "C", type: "music" } });
    const avatar = await uploaded(ada.token, "avatar");
    const item = await api("POST", "/items", {
      token: ada.token,
      body: { collection_id: collection.body.id, song_id: await makeCatalogEntry(), artwork_key: avatar },
    });
    expect(item.status).toBe(403);
    expect(item.body.reason.message).toMatch(/minted for avatar, not artwork/);
  });
});
