import fs from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { createToken, expect, screenshot, signUp, test } from "./support";

test("export: the Account page downloads a ZIP of the member's data; the API answers what the read scopes allow", async ({
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
    "webhooks:read",
  ]);
  const auth = { Authorization: `Bearer ${token}` };
  expect(
    (await request.post("/api/v1/collections", { headers: auth, data: { name: "Exported", type: "books" } })).status(),
  ).toBe(201);

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
  const partial = await request.get("/api/v1/export", { headers: { Authorization: `Bearer ${narrow}` } });
  expect(partial.status()).toBe(200);
  const partialFiles = unzipSync(new Uint8Array(await partial.body()));
  expect(Object.keys(partialFiles).sort()).toEqual(["collection-types.json", "collections.json", "manifest.json"]);
  const writeOnly = await createToken(page, "write only", ["collections:write"]);
  const refused = await request.get("/api/v1/export", { headers: { Authorization: `Bearer ${writeOnly}` } });
  expect(refused.status()).toBe(403);
});

test("delete account: a wrong password is refused; the right one deletes everything and ends the token", async ({
  page,
  request,
}) => {
  const account = await signUp(page);
  const token = await createToken(page, "soon gone", ["profile:read"]);
  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.get("/api/v1/profile", { headers: auth })).status()).toBe(200);

  await page.goto("/settings/account");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Delete my account" }) });
  await form.getByLabel("Your password").fill("not my password at all");
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByRole("alert")).toHaveText("That is not your password; nothing was deleted.");
  await screenshot(page, "account-delete-refused");
  expect((await request.get("/api/v1/profile", { headers: auth })).status()).toBe(200);

  await form.getByLabel("Your password").fill(account.password);
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/sign-in\?deleted=1$/);
  await expect(page.getByTestId("account-deleted")).toBeVisible();
  await screenshot(page, "account-deleted");
  expect((await request.get("/api/v1/profile", { headers: auth })).status()).toBe(401);
  await page.goto("/settings/account");
  await expect(page).toHaveURL(/\/sign-in$/);

  // The old credentials no longer sign in.
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator('[role="alert"].error')).toContainText("do not match");
});
