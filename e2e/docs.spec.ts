import { capabilities } from "../registry/capabilities";
import { PROBLEM_CODES } from "../lib/http/problem";
import { createToken, expect, screenshot, signUp, test } from "./support";

const LOADED = "#api-reference[data-loaded]";

test("the reference is Scalar from our own bundle: nothing loaded from elsewhere, search, code samples", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const foreign: string[] = [];
  const site = new URL(baseURL ?? "http://127.0.0.1").origin;
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== site) foreign.push(url);
  });
  await page.goto("/docs");
  await page.locator(LOADED).waitFor({ timeout: 60_000 });
  // The server-rendered outline names every operation; Scalar replaces it once loaded.
  for (const capability of capabilities.filter((c) => c.http)) {
    await expect(page.locator(`[id="op-${capability.tool}"]`)).toHaveCount(1);
  }
  await expect(page.locator("#docs-outline")).toBeHidden();
  await expect(
    page.locator("#api-reference").getByRole("heading", { name: "Personal Data Service API" }).first(),
  ).toBeVisible();

  // Search across operations.
  await page
    .getByRole("button", { name: /Search/ })
    .first()
    .click();
  await page.keyboard.type("Create a collection");
  await expect(page.getByRole("dialog").getByText("Create a collection").first()).toBeVisible();
  await screenshot(page, "docs-search");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // "/" opens the same search from anywhere but a field.
  await page.locator("#api-reference").getByRole("heading", { name: "Personal Data Service API" }).first().click();
  await page.keyboard.press("/");
  await expect(page.getByRole("dialog").getByRole("combobox", { name: "Enter search query" })).toBeFocused();
  await page.keyboard.press("Escape");

  // One operation: our three code samples, the typed client among them.
  await page.goto("/docs#tag/collections/POST/collections");
  const operation = page.locator('[id$="tag/collections/POST/collections"]');
  await expect(operation.getByText("Create a collection").first()).toBeVisible();
  await expect(operation.getByText(/curl -X POST/).first()).toBeVisible();
  await operation.getByTestId("client-picker").click();
  await page.getByRole("option", { name: /JavaScript/ }).click();
  await expect(operation.getByText(/@personal-data-service\/client/).first()).toBeVisible();
  await operation.getByTestId("client-picker").click();
  await page.getByRole("option", { name: /Python/ }).click();
  await expect(operation.getByText(/import requests/).first()).toBeVisible();
  await page.screenshot({ path: "reports/screenshots/docs-operation.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs#tag/items");
  await page.locator(LOADED).waitFor({ timeout: 60_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await page.screenshot({ path: "reports/screenshots/docs-phone.png" });
  // On a phone the search is behind Scalar's menu button; "/" opens both.
  await page.keyboard.press("/");
  const query = page.getByRole("dialog").getByRole("combobox", { name: "Enter search query" });
  await expect(query).toBeVisible();
  await query.fill("List items");
  await expect(
    page
      .getByRole("dialog")
      .getByRole("option", { name: /List items/ })
      .first(),
  ).toBeVisible();
  // The field's clear button sits beside the field, not over it (the site's label rule once stacked them).
  const clear = page.getByRole("dialog").getByRole("button", { name: /clear/i }).first();
  const [field, cross] = [await query.boundingBox(), await clear.boundingBox()];
  if (!field || !cross) throw new Error("no search field or clear button");
  expect(cross.x).toBeGreaterThanOrEqual(field.x + field.width - 1);
  expect(Math.abs(cross.y + cross.height / 2 - (field.y + field.height / 2))).toBeLessThan(8);
  await page.screenshot({ path: "reports/screenshots/docs-search-phone.png" });
  await page.keyboard.press("Escape");
  expect(foreign).toEqual([]);
});

test("without JavaScript the reference is an outline of every operation", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Personal Data Service API");
  for (const capability of capabilities.filter((c) => c.http)) {
    const http = capability.http;
    if (!http) continue;
    await expect(page.locator(`[id="op-${capability.tool}"] a`)).toHaveAttribute(
      "href",
      new RegExp(`/${http.method}${http.path.replace(/[{}]/g, "\\$&")}$`),
    );
  }
  await expect(page.getByRole("link", { name: "error codes" })).toHaveAttribute("href", "/docs/errors");
  await screenshot(page, "docs-no-js");
  await context.close();
});

test("every problem type has its row on /docs/errors, and old /docs#error- links land there", async ({ page }) => {
  await page.goto("/docs/errors");
  for (const [code, { status }] of Object.entries(PROBLEM_CODES)) {
    await expect(page.locator(`tr[id="${code}"]`)).toContainText(String(status));
  }
  await screenshot(page, "docs-errors");
  await page.goto("/docs#error-insufficient_scope");
  await expect(page).toHaveURL(/\/docs\/errors#insufficient_scope$/);
  await expect(page.locator("#insufficient_scope")).toBeVisible();
});

test("try it sends the request with a pasted token and keeps it nowhere", async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const token = await createToken(page, "try-it", ["collections:read"]);
  await page.goto("/docs#tag/collections/GET/collections");
  await page.locator(LOADED).waitFor({ timeout: 60_000 });
  const operation = page.locator('[id$="tag/collections/GET/collections"]');
  await operation.getByRole("button", { name: /Test Request/ }).click();
  const client = page.getByRole("dialog");
  await expect(client).toBeVisible();
  // Optional parameters (limit has a default) are shown but not sent until ticked.
  await expect(client.getByRole("checkbox", { name: "Include limit in request" }).first()).not.toBeChecked();
  await client.getByPlaceholder(/Token/i).first().fill(token);
  await client.getByRole("button", { name: /^Send/ }).first().click();
  await expect(client.getByText(/200/).first()).toBeVisible({ timeout: 20_000 });
  await expect(client.getByText(/"has_more"/).first()).toBeVisible();
  await page.screenshot({ path: "reports/screenshots/docs-try-it.png" });
  const stored = await page.evaluate(
    (secret) =>
      [localStorage, sessionStorage].some((storage) =>
        Object.keys(storage).some((key) => (storage.getItem(key) ?? "").includes(secret)),
      ) || document.cookie.includes(secret),
    token,
  );
  expect(stored).toBe(false);
});
