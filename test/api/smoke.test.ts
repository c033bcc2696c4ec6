import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

describe("collections over REST", () => {
  it("creates, reads, lists, updates and deletes a collection", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/collections", { token: ada.token, body: { name: "Road trip", type: "music" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Road trip", type: "music", visibility: "private", owner_id: ada.id });
    const id = created.body.id;
    expect((await api("GET", `/collections/${id}`, { token: ada.token })).body.name).toBe("Road trip");
    const list = await api("GET", "/collections", { token: ada.token });
    expect(list.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
    const patched = await api("PATCH", `/collections/${id}`, { token: ada.token, body: { visibility: "public" } });
    expect(patched.body.visibility).toBe("public");
    expect((await api("DELETE", `/collections/${id}`, { token: ada.token })).status).toBe(204);
    expect((await api("GET", `/collections/${id}`, { token: ada.token })).status).toBe(404);
  });
});
