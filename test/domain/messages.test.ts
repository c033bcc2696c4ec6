import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

const send = (from: TestMember, to: TestMember, extra: Record<string, unknown> = {}) =>
  api("POST", "/messages", { token: from.token, body: { recipient_id: to.id, body: "hello", ...extra } });
const consent = (member: TestMember, attachment_consent: string) =>
  api("PATCH", "/profile", { token: member.token, body: { attachment_consent } });
const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((m) => m.id);
const link = { attachment_url: "https://example.com/photo.jpg" };

describe("messages", () => {
  it("lists what the member sent or received, with= narrows to one conversation", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const cy = await makeMember();
    const m1 = (await send(ada, bob)).body.id;
    const m2 = (await send(bob, ada)).body.id;
    const m3 = (await send(cy, ada)).body.id;
    expect(ids(await api("GET", "/messages", { token: ada.token }))).toEqual([m3, m2, m1]);
    expect(ids(await api("GET", `/messages?with=${bob.id}`, { token: ada.token }))).toEqual([m2, m1]);
    expect(ids(await api("GET", "/messages", { token: bob.token }))).toEqual([m2, m1]);
  });

  it("keeps a conversation from anyone outside it", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const eve = await makeMember();
    const sent = await send(ada, bob);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ sender_id: ada.id, recipient_id: bob.id, body: "hello" });
    expect((await api("GET", `/messages/${sent.body.id}`, { token: bob.token })).status).toBe(200);
    expect((await api("GET", `/messages/${sent.body.id}`, { token: eve.token })).status).toBe(404);
    expect(ids(await api("GET", `/messages?with=${ada.id}`, { token: eve.token }))).toEqual([]);
  });

  it("cannot be changed or deleted (405) nor sent as someone else (422)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const id = (await send(ada, bob)).body.id;
    expect((await api("PATCH", `/messages/${id}`, { token: ada.token, body: { body: "edited" } })).status).toBe(405);
    expect((await api("DELETE", `/messages/${id}`, { token: ada.token })).status).toBe(405);
    const forged = await api("POST", "/messages", {
      token: ada.token,
      body: { recipient_id: ada.id, sender_id: bob.id, body: "x" },
    });
    expect(forged.status).toBe(422);
  });

  it("refuses a message to yourself (422 with the store's reason)", async () => {
    const ada = await makeMember();
    expectStoreRefusal(await send(ada, ada), {
      status: 422,
      code: "invalid_request",
      sqlstate: "23514",
      message: /messages_not_to_self/,
    });
  });
});

describe("attachment consent", () => {
  const refused = (what: string) => ({
    status: 403,
    code: "write_refused",
    sqlstate: "42501",
    message: new RegExp(`does not accept attachments.*attachment consent: ${what}`),
  });

  it("defaults to following: an attachment needs the recipient to follow the sender", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect((await api("GET", "/profile", { token: bob.token })).body.attachment_consent).toBe("following");
    expectStoreRefusal(await send(ada, bob, link), refused("following"));
    expect((await send(ada, bob)).status).toBe(201);
    expect((await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } })).status).toBe(201);
    expectStoreRefusal(await send(ada, bob, link), refused("following"));
    expect((await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } })).status).toBe(201);
    const accepted = await send(ada, bob, link);
    expect(accepted.status).toBe(201);
    expect(accepted.body.attachment_url).toBe(link.attachment_url);
  });

  it("nobody refuses every attachment, even from members followed; everyone accepts any", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } });
    expect((await consent(bob, "nobody")).status).toBe(200);
    expectStoreRefusal(await send(ada, bob, link), refused("nobody"));
    expect((await send(ada, bob)).status).toBe(201);
    const cy = await makeMember();
    await consent(cy, "everyone");
    expect((await send(ada, cy, link)).status).toBe(201);
  });

  it("accepts only https links and known consent values (422)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    await consent(bob, "everyone");
    expect((await send(ada, bob, { attachment_url: "http://example.com/a.jpg" })).status).toBe(422);
    expect((await consent(bob, "friends")).status).toBe(422);
  });
});
