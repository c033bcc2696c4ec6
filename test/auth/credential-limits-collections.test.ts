import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";
import { getTools, invoke } from "../surfaces/agent";
import { collectionWithItem, ids, limitedToOneOfTwo } from "./credential-limits-support";

/**
 * A token limited to chosen collections, through the real HTTP path: the store (RLS) hides the
 * rest, on every verb and in the export, while the member's unlimited token still sees everything.
 */
describe("a collection-limited token", () => {
  let ada: TestMember;
  let allowed: { collectionId: string; itemId: string };
  let other: { collectionId: string; itemId: string };
  let token: string;

  beforeAll(async () => {
    ({ ada, allowed, other, token } = await limitedToOneOfTwo("public"));
  }, 180_000);

  it("lists only its collections and their items; the unlimited token still lists all", async () => {
    expect(ids((await api("GET", "/collections", { token })).body)).toEqual([allowed.collectionId]);
    expect(ids((await api("GET", "/items", { token })).body)).toEqual([allowed.itemId]);
    expect((await api("GET", `/items?collection_id=${other.collectionId}`, { token })).body.data).toEqual([]);
    expect(ids((await api("GET", "/collections", { token: ada.token })).body)).toEqual(
      [allowed.collectionId, other.collectionId].sort(),
    );
  });

  it("answers 404 for a collection or item outside its list, on get, update and delete, and leaves them be", async () => {
    const changes = [
      { path: `/collections/${other.collectionId}`, body: { name: "Taken" } },
      { path: `/items/${other.itemId}`, body: { note: "Taken" } },
    ];
    for (const { path, body } of changes) {
      expect((await api("GET", path, { token })).status, path).toBe(404);
      expect((await api("PATCH", path, { token, body })).status, path).toBe(404);
      expect((await api("DELETE", path, { token })).status, path).toBe(404);
      const seen = await api("GET", path, { token: ada.token });
      expect(seen.status, path).toBe(200);
      expect(seen.body).not.toMatchObject(body);
    }
    // The same through a tool.
    const viaTool = await invoke(token, { tool: "items_get", input: { id: other.itemId } });
    expect(viaTool.status).toBe(404);
  });

  it("reads and writes inside its list", async () => {
    expect((await api("GET", `/items/${allowed.itemId}`, { token })).status).toBe(200);
    const patched = await api("PATCH", `/items/${allowed.itemId}`, { token, body: { note: "mine" } });
    expect(patched.status).toBe(200);
    const created = await api("POST", "/items", {
      token,
      body: { collection_id: allowed.collectionId, song_id: await makeCatalogEntry() },
    });
    expect(created.status).toBe(201);
    expect((await api("DELETE", `/items/${created.body.id}`, { token })).status).toBe(204);
  });

  it("cannot write an item into, or move one to, a collection outside its list: the store refuses", async () => {
    const into = await api("POST", "/items", {
      token,
      body: { collection_id: other.collectionId, song_id: await makeCatalogEntry() },
    });
    expect(into.status).toBe(403);
    expect(into.body.code).toBe("write_refused");
    const moved = await api("PATCH", `/items/${allowed.itemId}`, {
      token,
      body: { collection_id: other.collectionId },
    });
    expect(moved.status).toBe(403);
    expect(moved.body.code).toBe("write_refused");
    expect((await api("GET", `/items/${allowed.itemId}`, { token: ada.token })).body.collection_id).toBe(
      allowed.collectionId,
    );
  });

  it("cannot create a collection (403 collection_limited), and the catalog does not offer it", async () => {
    const created = await api("POST", "/collections", { token, body: { name: "New", type: "music" } });
    expect(created.status).toBe(403);
    expect(created.body.code).toBe("collection_limited");
    const names = (await getTools(token)).body.tools.map((t: { name: string }) => t.name);
    expect(names).not.toContain("collections_create");
    expect(names).toContain("items_create");
  });

  it("does not see another member's public collection either", async () => {
    const bob = await makeMember();
    const shared = await collectionWithItem(bob, "Bob's public", "public");
    expect((await api("GET", `/collections/${shared.collectionId}`, { token })).status).toBe(404);
    expect((await api("GET", `/collections?owner=${bob.id}`, { token })).body.data).toEqual([]);
    expect((await api("GET", `/collections/${shared.collectionId}`, { token: ada.token })).status).toBe(200);
  });

  it("exports only its collections and their items", async () => {
    const exported = await api("GET", "/export", { token });
    expect(exported.status).toBe(200);
    const files = exported.body.files as Record<string, { id: string; collection_id?: string }[]>;
    expect((files["collections.json"] ?? []).map((c) => c.id)).toEqual([allowed.collectionId]);
    expect((files["items.json"] ?? []).map((i) => i.collection_id)).toEqual(
      (files["items.json"] ?? []).map(() => allowed.collectionId),
    );
    expect((files["items.json"] ?? []).map((i) => i.id)).toContain(allowed.itemId);
    expect((files["items.json"] ?? []).map((i) => i.id)).not.toContain(other.itemId);
  });
});
