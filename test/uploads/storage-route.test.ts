import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import { makeMember } from "../support/factories";
import { mint, storagePut, useLocalStorage } from "./support/storage";

let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

describe("local storage: what the storage route refuses", () => {
  const setup = async (size = 8, type = "image/png") => {
    const ada = await makeMember({ plan: "pro" });
    return { ada, minted: await mint(ada.token, "avatar", type, size) };
  };

  it("refuses a replay: one successful PUT per URL", async () => {
    const { minted } = await setup();
    expect((await storagePut(minted.url, "12345678", minted.headers)).status).toBe(200);
    const again = await storagePut(minted.url, "abcdefgh", minted.headers);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/already been used/);
    expect(fs.readdirSync(path.join(storage.dir, ".incoming"))).toEqual([]);
    expect(fs.readFileSync(path.join(storage.dir, minted.key), "utf8")).toBe("12345678");
  });

  it("refuses a tampered signature, size, type or expiry in the URL", async () => {
    const { minted } = await setup();
    for (const [param, value] of [
      ["signature", "A".repeat(43)],
      ["size", "9"],
      ["type", "image/gif"],
      ["expires", String(Math.floor(Date.now() / 1000) + 3600)],
    ] as const) {
      const url = new URL(minted.url);
      url.searchParams.set(param, value);
      const response = await storagePut(url.toString(), "12345678", minted.headers);
      expect(response.status, param).toBe(403);
      expect(response.body.detail).toMatch(/signature does not match/);
    }
    const unsigned = new URL(minted.url);
    unsigned.search = "";
    expect((await storagePut(unsigned.toString(), "12345678", minted.headers)).status).toBe(403);
    expect((await storagePut(minted.url, "12345678", minted.headers)).status).toBe(200);
  });

  it("refuses an expired URL", async () => {
    const { minted } = await setup();
    const { signPut } = await import("@/lib/domain/uploads/local-signature");
    const expires = Math.floor(Date.now() / 1000) - 1;
    await asService((tx) =>
      tx.query("update app_private.uploads set expires_at = to_timestamp($2) where key = $1", [minted.key, expires]),
    );
    const put = { key: minted.key, expires, contentType: "image/png", size: 8 };
    const url = new URL(minted.url);
    url.searchParams.set("expires", String(expires));
    url.searchParams.set("signature", signPut(Buffer.from(process.env.UPLOAD_SIGNING_SECRET ?? ""), put));
    const response = await storagePut(url.toString(), "12345678", minted.headers);
    expect(response.status).toBe(403);
    expect(response.body.detail).toMatch(/expired/);
    expect(fs.existsSync(path.join(storage.dir, minted.key))).toBe(false);
  });

  it("refuses another content type and any other size", async () => {
    const { minted } = await setup();
    const gif = await storagePut(minted.url, "12345678", { ...minted.headers, "Content-Type": "image/gif" });
    expect(gif.status).toBe(415);
    const { "Content-Length": _, ...noLength } = minted.headers;
    expect((await storagePut(minted.url, "123456789", noLength)).status).toBe(413);
    expect((await storagePut(minted.url, "1234567", noLength)).status).toBe(400);
    expect((await storagePut(minted.url, "123456789", { ...noLength, "Content-Length": "9" })).status).toBe(413);
    expect(fs.existsSync(path.join(storage.dir, minted.key))).toBe(false);
    expect((await storagePut(minted.url, "12345678", minted.headers)).status).toBe(200);
  });

  it("refuses path trickery and other methods", async () => {
    const { minted } = await setup();
    const [, uuid] = minted.key.split("/");
    for (const segments of [
      ["..", "..", "etc", "passwd"],
      ["avatar", "..", uuid ?? ""],
      ["avatar", `../${uuid}`],
      [`avatar/${uuid}`],
      ["avatar", uuid ?? "", ".."],
      ["avatar", `${uuid}%00`],
      ["AVATAR", uuid ?? ""],
      [".incoming", uuid ?? ""],
    ]) {
      const response = await storagePut(minted.url, "12345678", minted.headers, segments);
      expect(response.status, segments.join("|")).toBe(404);
    }
    expect((await storagePut(minted.url, "", {}, undefined, "GET")).status).toBe(405);
    expect(fs.existsSync(path.join(storage.dir, minted.key))).toBe(false);
    expect(fs.existsSync(path.join(storage.dir, "..", uuid ?? ""))).toBe(false);
    expect((await storagePut(minted.url, "12345678", minted.headers)).status).toBe(200);
  });
});
