import fs from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { createToken, expect, screenshot, signUp, test } from "./support";

test("export: the Account page downloads a ZIP of the member's data; the API needs every read scope", async ({
  page,
  request,
}) => {
  const account = await signUp(page);
  const token = await createToken(page, "export all", [
    "collections:read",
    "collections:write",
    "goals:read",
    "items:read",
    "messages:read",
    "profile:read",
    "social:read",
    "streaks:read",
    "todos:read",
  ]);
  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.post("/api/v1/collections", { headers: auth, data: { name: "Exported", type: "books" } })).status()).toBe(201);

  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "Export your data" })).toBeVisible();
  await screenshot(page, "account-export");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: /Download export/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^pds-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  const manifest = JSON.parse(strFromU8(files["manifest.json"] as Uint8Array));
  expect(manifest.format).toBe("pds-export/1");
  const profile = JSON.parse(strFromU8(files["profile.json"] as Uint8Array));
  expect(profile.handle).toBe(account.handle);
  const collections = JSON.parse(strFromU8(files["collections.json"] as Uint8Array));
  expect(collections.map((c: { name: string }) => c.name)).toEqual(["Exported"]);

  const viaApi = await request.get("/api/v1/export", { headers: auth });
  expect(viaApi.status()).toBe(200);
  expect(viaApi.headers()["content-type"]).toBe("application/zip");
  const narrow = await createToken(page, "narrow", ["collections:read"]);
  const refused = await request.get("/api/v1/export", { headers: { Authorization: `Bearer ${narrow}` } });
  expect(refused.status()).toBe(403);
});
