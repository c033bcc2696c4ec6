import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

type Visibility = "private" | "unlisted" | "public";

async function collectionWithItem(owner: TestMember, visibility: Visibility) {
  const collection = await api("POST", "/collections", {
    token: owner.token,
    body: { name: "Favourites", type: "music", visibility },
  });
  expect(collection.status).toBe(201);
  const item = await api("POST", "/items", {
    token: owner.token,
    body: { collection_id: collection.body.id, song_id: await makeCatalogEntry() },
  });
  expect(item.status).toBe(201);
  return { collection: collection.body.id as string, item: item.body.id as string };
}

/** What a second member sees of the owner's collection and its item. */
async function seenBy(reader: TestMember, owner: TestMember, ids: { collection: string; item: string }) {
  const listed = await api("GET", `/collections?owner=${owner.id}`, { token: reader.token });
  const items = await api("GET", `/items?collection_id=${ids.collection}`, { token: reader.token });
  return {
    collection: (await api("GET", `/collections/${ids.collection}`, { token: reader.token })).status,
    item: (await api("GET", `/items/${ids.item}`, { token: reader.token })).status,
    listed: listed.body.data.some((c: { id: string }) => c.id === ids.collection),
    itemsListed: items.body.data.length,
  };
}

const EXPECTED: Record<Visibility, Awaited<ReturnType<typeof seenBy>>> = {
  private: { collection: 404, item: 404, listed: false, itemsListed: 0 },
  unlisted: { collection: 200, item: 200, listed: false, itemsListed: 1 },
  public: { collection: 200, item: 200, listed: true, itemsListed: 1 },
};

describe("collection visibility, read as a second member", () => {
  it.each(["private", "unlisted", "public"] as const)("%s: the collection and its items", async (visibility) => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await collectionWithItem(ada, visibility);
    expect(await seenBy(bob, ada, ids)).toEqual(EXPECTED[visibility]);
  });

  it("follows every move between the three states, items included", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await collectionWithItem(ada, "private");
    const moves: Visibility[] = ["public", "unlisted", "private", "unlisted", "public", "private"];
    for (const visibility of moves) {
      const moved = await api("PATCH", `/collections/${ids.collection}`, { token: ada.token, body: { visibility } });
      expect(moved.body.visibility).toBe(visibility);
      expect(await seenBy(bob, ada, ids)).toEqual(EXPECTED[visibility]);
    }
  });

  it("defaults to private and lists all of the owner's own collections, whatever their visibility", async () => {
    const ada = await makeMember();
    const made = await api("POST", "/collections", { token: ada.token, body: { name: "x", type: "film" } });
    expect(made.body.visibility).toBe("private");
    await collectionWithItem(ada, "unlisted");
    await collectionWithItem(ada, "public");
    const own = await api("GET", "/collections", { token: ada.token });
    expect(own.body.data.map((c: { visibility: string }) => c.visibility).sort()).toEqual([
      "private",
      "public",
      "unlisted",
    ]);
    expect((await api("GET", `/collections?owner=${ada.id}`, { token: ada.token })).body.data).toHaveLength(3);
  });

  it("lets a reader of a public collection neither change it nor add to it", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ids = await collectionWithItem(ada, "public");
    const rename = await api("PATCH", `/collections/${ids.collection}`, { token: bob.token, body: { name: "mine" } });
    expect(rename.status).toBe(403);
    expect((await api("DELETE", `/items/${ids.item}`, { token: bob.token })).status).toBe(403);
    const added = await api("POST", "/items", {
      token: bob.token,
      body: { collection_id: ids.collection, song_id: await makeCatalogEntry() },
    });
    expectStoreRefusal(added, { status: 403, code: "write_refused", sqlstate: "42501", message: /row-level security/ });
    expect((await api("GET", `/collections/${ids.collection}`, { token: ada.token })).body.name).toBe("Favourites");
  });

  it("refuses an unknown visibility (422)", async () => {
    const ada = await makeMember();
    const response = await api("POST", "/collections", {
      token: ada.token,
      body: { name: "x", type: "music", visibility: "friends" },
    });
    expect(response.status).toBe(422);
  });
});
