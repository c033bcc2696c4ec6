import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

const follow = (from: TestMember, to: { id: string }) =>
  api("POST", "/follows", { token: from.token, body: { followee_id: to.id } });
const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((f) => f.id);

describe("follows", () => {
  it("lists whom the member follows, and with direction=followers who follows the member", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const cy = await makeMember();
    const adaFollowsBob = await follow(ada, bob);
    expect(adaFollowsBob.status).toBe(201);
    expect(adaFollowsBob.body).toMatchObject({ follower_id: ada.id, followee_id: bob.id });
    const cyFollowsBob = (await follow(cy, bob)).body.id;
    expect(ids(await api("GET", "/follows", { token: ada.token }))).toEqual([adaFollowsBob.body.id]);
    expect(ids(await api("GET", "/follows?direction=following", { token: ada.token }))).toEqual([
      adaFollowsBob.body.id,
    ]);
    expect(ids(await api("GET", "/follows", { token: bob.token }))).toEqual([]);
    expect(ids(await api("GET", "/follows?direction=followers", { token: bob.token }))).toEqual([
      cyFollowsBob,
      adaFollowsBob.body.id,
    ]);
    expect((await api("GET", "/follows?direction=sideways", { token: bob.token })).status).toBe(422);
  });

  it("refuses following yourself (422) and following twice (409), with the store's reason", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expectStoreRefusal(await follow(ada, ada), {
      status: 422,
      code: "invalid_request",
      sqlstate: "23514",
      message: /follows_no_self_follow/,
    });
    expect((await follow(ada, bob)).status).toBe(201);
    expectStoreRefusal(await follow(ada, bob), {
      status: 409,
      code: "conflict",
      sqlstate: "23505",
      message: /follows_once/,
    });
  });

  it("refuses setting follower_id (read-only)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const response = await api("POST", "/follows", {
      token: ada.token,
      body: { followee_id: ada.id, follower_id: bob.id },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ pointer: "/follower_id", code: "read_only" });
  });

  it("lets only the follower delete a follow", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const id = (await follow(ada, bob)).body.id;
    expect((await api("DELETE", `/follows/${id}`, { token: bob.token })).status).toBe(403);
    expect((await api("DELETE", `/follows/${id}`, { token: ada.token })).status).toBe(204);
    expect(ids(await api("GET", "/follows?direction=followers", { token: bob.token }))).toEqual([]);
  });
});
