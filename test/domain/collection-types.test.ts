import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

const ALL = ["music", "film", "books", "articles", "places", "products"];

describe("collection types", () => {
  it("lists all six, switched on, for a new member", async () => {
    const ada = await makeMember();
    const list = await api("GET", "/collection-types", { token: ada.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { type: string; enabled: boolean }) => [t.type, t.enabled])).toEqual(
      ALL.map((type) => [type, true]),
    );
  });

  it("switches types with a map and refuses new collections of a switched-off type with the reason", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const kept = await api("POST", "/collections", { token: ada.token, body: { name: "Old", type: "music" } });
    const books = await api("POST", "/collections", { token: ada.token, body: { name: "Reading", type: "books" } });
    const patched = await api("PATCH", "/collection-types", { token: ada.token, body: { music: false, film: false } });
    expect(patched.status).toBe(200);
    const enabled = Object.fromEntries(
      patched.body.data.map((t: { type: string; enabled: boolean }) => [t.type, t.enabled]),
    );
    expect(enabled).toEqual({ music: false, film: false, books: true, articles: true, places: true, products: true });

    const refused = { status: 403, code: "write_refused", sqlstate: "42501", message: /"music" is switched off/ };
    const created = await api("POST", "/collections", { token: ada.token, body: { name: "New", type: "music" } });
    expectStoreRefusal(created, refused);
    expect(created.body.detail).toContain('collection type "music" is switched off');
    const moved = await api("PATCH", `/collections/${books.body.id}`, { token: ada.token, body: { type: "music" } });
    expectStoreRefusal(moved, refused);
    // Existing collections of the type stay, and stay editable.
    const renamed = await api("PATCH", `/collections/${kept.body.id}`, { token: ada.token, body: { name: "Older" } });
    expect(renamed.status).toBe(200);
    // Other members are not affected.
    expect((await api("POST", "/collections", { token: bob.token, body: { name: "x", type: "music" } })).status).toBe(
      201,
    );

    await api("PATCH", "/collection-types", { token: ada.token, body: { music: true } });
    expect((await api("POST", "/collections", { token: ada.token, body: { name: "New", type: "music" } })).status).toBe(
      201,
    );
  });

  it("refuses unknown types and non-boolean values (422)", async () => {
    const ada = await makeMember();
    expect((await api("PATCH", "/collection-types", { token: ada.token, body: { podcasts: false } })).status).toBe(422);
    expect((await api("PATCH", "/collection-types", { token: ada.token, body: { music: "off" } })).status).toBe(422);
  });
});
