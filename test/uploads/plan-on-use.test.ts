import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPlan } from "@/lib/auth/members";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember } from "../support/factories";
import { mint, storagePut, uploaded, useLocalStorage } from "./support/storage";

let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

/** The plan is checked where a key is attached, not only when its URL is minted. */
describe("uploads after a downgrade from Pro", () => {
  const planRefusal = (response: Awaited<ReturnType<typeof api>>) => {
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("plan_required");
    expect(response.body.reason).toMatchObject({ sqlstate: "PDS01" });
    expect(response.body.reason.message).toMatch(/Pro plan/);
  };

  it("lets the upload minted earlier finish, but refuses to attach its key (403 plan_required)", async () => {
    const ada = await makeMember({ plan: "pro" });
    const minted = await mint(ada.token, "avatar", "image/png", 5);
    await setPlan(ada.email, "free");
    // The URL is honoured for its lifetime: the bytes arrive; using them needs the plan.
    const put = await storagePut(minted.url, "bytes", minted.headers);
    expect(put.status).toBe(200);
    planRefusal(await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: minted.key } }));
    expect((await api("GET", "/profile", { token: ada.token })).body.avatar_key).toBeNull();
  });

  it("refuses a key uploaded while on Pro on a new message or item, and keeps what was attached before", async () => {
    const ada = await makeMember({ plan: "pro" });
    const bob = await makeMember();
    await api("PATCH", "/profile", { token: bob.token, body: { attachment_consent: "everyone" } });
    const avatar = await uploaded(ada.token, "avatar");
    const attachment = await uploaded(ada.token, "attachment", "%PDF-1.7 tiny", "application/pdf");
    const artwork = await uploaded(ada.token, "artwork");
    expect((await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: avatar } })).status).toBe(200);
    await setPlan(ada.email, "free");

    planRefusal(
      await api("POST", "/messages", {
        token: ada.token,
        body: { recipient_id: bob.id, body: "Hi", attachment_key: attachment },
      }),
    );
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "Art", type: "music" } });
    planRefusal(
      await api("POST", "/items", {
        token: ada.token,
        body: { collection_id: collection.body.id, song_id: await makeCatalogEntry(), artwork_key: artwork },
      }),
    );
    // The avatar set while on Pro stays, can be sent again unchanged, and can be cleared.
    const same = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: avatar, bio: "still here" } });
    expect(same.status).toBe(200);
    expect(same.body.avatar_key).toBe(avatar);
    const cleared = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: null } });
    expect(cleared.status).toBe(200);
    planRefusal(await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: avatar } }));
  });
});
