import path from "node:path";
import type { Page } from "@playwright/test";
import { READ_ONLY_SCOPES, SCOPES } from "../registry/scopes";
import { createToken, expect, formError, SCREENSHOTS, screenshot, signUp, test } from "./support";

test("sign up, make a two-scope token, use it, revoke it", async ({ page, request }) => {
  await page.goto("/sign-up");
  await screenshot(page, "sign-up");
  await signUp(page);
  await screenshot(page, "tokens-empty");
  const token = await createToken(page, "e2e script", ["collections:read", "items:read"]);
  await expectSecretInView(page, "e2e script");
  await viewScreenshot(page, "tokens-created-desktop-view");
  await screenshot(page, "tokens-created");
  // Fits a phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "tokens-phone");
  // On a phone too, the secret made last is what the screen shows and what has focus.
  await createToken(page, "e2e phone", ["items:read"]);
  await expectSecretInView(page, "e2e phone");
  await viewScreenshot(page, "tokens-created-phone-view");
  await page.setViewportSize({ width: 1280, height: 720 });

  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.get("/api/v1/collections", { headers: auth })).status()).toBe(200);
  expect((await request.get("/api/v1/items", { headers: auth })).status()).toBe(200);
  const refused = await request.get("/api/v1/todos", { headers: auth });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("insufficient_scope");

  // Shown once: after a reload the page holds only the pds_…last4 form.
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  const row = page.getByTestId("token-row").filter({ hasText: "e2e script" });
  await expect(row).toContainText(`pds_…${token.slice(-4)}`);
  await expect(row).toContainText("collections:read");
  await expect(row).toContainText("items:read");

  // Revoking takes a second step; the first only asks.
  await row.getByRole("link", { name: /Revoke/ }).click();
  const confirm = page.getByTestId("revoke-confirm");
  await expect(confirm).toContainText("e2e script");
  await screenshot(page, "tokens-revoke-confirm");
  expect((await request.get("/api/v1/collections", { headers: auth })).status()).toBe(200);
  await confirm.getByRole("button", { name: "Yes, revoke it" }).click();
  await expect(confirm).toHaveCount(0);
  // Folded away under "Revoked and expired".
  await page.getByText(/Revoked and expired/).click();
  await expect(row).toContainText("revoked");
  const revoked = await request.get("/api/v1/collections", { headers: auth });
  expect(revoked.status()).toBe(401);
  await screenshot(page, "tokens-revoked");
});

/** The one-time secret has focus, and it and its heading are on screen (not scrolled away above). */
async function expectSecretInView(page: Page, name: string) {
  const heading = page.getByRole("heading", { name: `Token “${name}” created` });
  await expect(heading).toBeInViewport();
  await expect(page.getByTestId("new-token")).toBeFocused();
  await expect(page.getByTestId("new-token")).toBeInViewport({ ratio: 1 });
}

/** What the screen shows right now (not the full page). */
const viewScreenshot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });

test("the list of tokens comes first, creating one is its own step; no body margin, every settings tab on a phone", async ({
  page,
}) => {
  await signUp(page);
  const listTop = (await page.getByRole("heading", { name: "Your tokens" }).boundingBox())?.y ?? Number.NaN;
  const createTop = (await page.getByRole("heading", { name: "Create a token" }).boundingBox())?.y ?? Number.NaN;
  expect(listTop).toBeLessThan(createTop);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    // globals.css's @scope once styled "a body inside body", leaving the browser's 8 px margin.
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
    const tabs = page.getByRole("navigation", { name: "Settings" }).getByRole("link");
    await expect(tabs).toHaveCount(9);
    for (const tab of await tabs.all()) await expect(tab).toBeInViewport({ ratio: 1 });
    await viewScreenshot(page, `settings-tabs-${width}`);
  }
});

test("sign out, then sign in again; a wrong password and an unknown email read the same", async ({ page }) => {
  const account = await signUp(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/settings/tokens");
  await expect(page).toHaveURL(/\/sign-in$/);

  const attempt = async (email: string, password: string) => {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
  };
  await attempt(account.email, "not the password");
  const wrongPassword = await formError(page).textContent();
  await attempt(`nobody-${account.handle}@example.test`, "not the password");
  await expect(formError(page)).toHaveText(wrongPassword ?? "");
  await screenshot(page, "sign-in-error");

  // Keyboard only: the skip link comes first, then the form is reachable and sent with Enter.
  await page.reload();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.getByLabel("Email").focus();
  await page.keyboard.type(account.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  await expect(page.getByRole("link", { name: "Tokens" })).toHaveAttribute("aria-current", "page");
});

test("scopes start empty and are described; presets, custom date, snippets, rename, expires soon", async ({ page }) => {
  await signUp(page);
  await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(0);
  await expect(page.getByText("Read: your collections and the collection types you use.")).toBeVisible();
  await expect(page.locator("#scope-collections-read")).toContainText("GET /collections");
  await page.getByRole("button", { name: "Read-only" }).click();
  await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(READ_ONLY_SCOPES.length);
  await page.getByRole("button", { name: "Everything" }).click();
  await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(SCOPES.length);
  await page.getByRole("button", { name: "Assistant" }).click();
  await expect(page.getByRole("checkbox", { name: "items:read", exact: true })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "messages:read", exact: true })).not.toBeChecked();

  const in90 = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  await expect(page.getByTestId("expiry-date")).toContainText(in90);
  await page.getByLabel("Expires after").selectOption("custom");
  const date = page.getByLabel("Expiry date");
  const max = await date.getAttribute("max");
  expect(max).toBe(new Date(Date.now() + 366 * 86_400_000).toISOString().slice(0, 10));
  const in5 = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  await date.fill(in5);
  await expect(page.getByTestId("expiry-date")).toContainText(`${in5} 00:00 UTC`);
  await page.getByLabel("Name").fill("assistant laptop");
  await screenshot(page, "tokens-form");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("created-expiry")).toContainText(`${in5} 00:00 UTC`);
  const token = await page.getByTestId("new-token").inputValue();
  await expect(page.getByTestId("snippet-shell")).toContainText(`Bearer ${token}`);
  await expect(page.getByTestId("snippet-shell")).toContainText("/api/v1/collections");
  await expect(page.getByTestId("snippet-javascript")).toContainText(`fetch("`);
  await expect(page.getByTestId("snippet-javascript")).toContainText(`Bearer ${token}`);
  await expect(page.getByTestId("snippet-javascript")).not.toContainText("import");
  await screenshot(page, "tokens-created-snippets");

  await page.reload();
  const row = page.getByTestId("token-row").filter({ has: page.locator('input[value="assistant laptop"]') });
  await expect(row).toContainText("expires soon");
  await row.getByRole("textbox").fill("assistant desktop");
  await row.getByRole("button", { name: /Rename/ }).click();
  await page.reload();
  await expect(page.locator('input[value="assistant desktop"]')).toHaveCount(1);
  await screenshot(page, "tokens-list");
});
