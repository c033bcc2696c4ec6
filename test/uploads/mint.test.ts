import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, tokenFor } from "../support/factories";
import { type Minted, useLocalStorage } from "./support/storage";

const png = { purpose: "avatar", content_type: "image/png", size: 1024 };
let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

describe("POST /uploads: plan and scope", () => {
  it("mints a 10-minute URL with type and size bound in for a Pro member", async () => {
    const pro = await makeMember({ plan: "pro" });
    const before = Date.now();
    const response = await api("POST", "/uploads", { token: pro.token, body: png });
    expect(response.status).toBe(201);
    const minted = response.body as Minted;
    expect(minted.method).toBe("PUT");
    expect(minted.key).toMatch(/^avatar\/[0-9a-f-]{36}$/);
    expect(minted.headers).toEqual({ "Content-Type": "image/png", "Content-Length": "1024" });
    // The store counts ten minutes from the transaction's start cut to the whole second, which can
    // fall in the second after `before` when the request crosses one.
    const issued = Date.parse(minted.expires_at) - 600_000;
    expect(issued % 1000).toBe(0);
    expect(issued).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(issued).toBeLessThanOrEqual(Date.now());
    const url = new URL(minted.url);
    expect(url.pathname).toBe(`/storage/upload/${minted.key}`);
    expect(url.searchParams.get("type")).toBe("image/png");
    expect(url.searchParams.get("size")).toBe("1024");
    expect(Number(url.searchParams.get("expires")) * 1000).toBe(Date.parse(minted.expires_at));
    expect(url.searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a Free member with 403 plan_required, decided by the store", async () => {
    const free = await makeMember({ plan: "free" });
    const response = await api("POST", "/uploads", { token: free.token, body: png });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("plan_required");
    expect(response.body.reason.sqlstate).toBe("PDS01");
    expect(response.body.detail).toMatch(/Pro plan/);
  });

  it("asks for the write scope of the purpose", async () => {
    const pro = await makeMember({ plan: "pro" });
    const messagesOnly = await tokenFor(pro.id, ["messages:write"]);
    const refused = await api("POST", "/uploads", { token: messagesOnly, body: png });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="profile:write"');
    const attachment = { purpose: "attachment", content_type: "audio/mpeg", size: 40 * 1024 * 1024 };
    expect((await api("POST", "/uploads", { token: messagesOnly, body: attachment })).status).toBe(201);
    const itemsOnly = await tokenFor(pro.id, ["items:write"]);
    const artwork = { ...png, purpose: "artwork" };
    expect((await api("POST", "/uploads", { token: itemsOnly, body: artwork })).status).toBe(201);
    expect((await api("POST", "/uploads", { token: itemsOnly, body: attachment })).status).toBe(403);
  });

  it("refuses a token with none of the upload scopes before reading the body", async () => {
    const pro = await makeMember({ plan: "pro" });
    const readOnly = await tokenFor(pro.id, ["profile:read", "items:read", "messages:read"]);
    const response = await api("POST", "/uploads", { token: readOnly, body: { nonsense: true } });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("insufficient_scope");
    expect(response.headers.get("www-authenticate")).toContain('scope="profile:write messages:write items:write"');
  });

  it("answers 401 without a token", async () => {
    expect((await api("POST", "/uploads", { body: png })).status).toBe(401);
  });
});

describe("POST /uploads: types and sizes", () => {
  it.each([
    [{ ...png, content_type: "application/x-msdownload" }, "/content_type"],
    [{ ...png, content_type: "audio/mpeg" }, "/content_type"],
    [{ ...png, size: 10 * 1024 * 1024 + 1 }, "/size"],
    [{ ...png, size: 0 }, "/size"],
    [{ ...png, purpose: "banner" }, "/purpose"],
    [{ ...png, extra: 1 }, "/extra"],
  ])("refuses %o with 422 at %s", async (body, pointer) => {
    const pro = await makeMember({ plan: "pro" });
    const response = await api("POST", "/uploads", { token: pro.token, body });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("invalid_request");
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it("accepts audio attachments up to 50 MiB and images up to 10 MiB", async () => {
    const pro = await makeMember({ plan: "pro" });
    const audio = { purpose: "attachment", content_type: "audio/ogg", size: 50 * 1024 * 1024 };
    expect((await api("POST", "/uploads", { token: pro.token, body: audio })).status).toBe(201);
    const tooBig = { ...audio, size: 50 * 1024 * 1024 + 1 };
    expect((await api("POST", "/uploads", { token: pro.token, body: tooBig })).status).toBe(422);
    const image = { purpose: "artwork", content_type: "image/webp", size: 10 * 1024 * 1024 };
    expect((await api("POST", "/uploads", { token: pro.token, body: image })).status).toBe(201);
  });
});
