import type { Locator, Page } from "@playwright/test";
import { capabilities } from "../registry/capabilities";
import { PROBLEM_CODES } from "../lib/http/problem";
import { guideEntries, scalarSlug } from "../lib/surfaces/openapi-guide";
import { createToken, expect, screenshot, signUp, test } from "./support";

const LOADED = "#api-reference[data-loaded]";

test("the reference is Scalar from our own bundle: nothing loaded from elsewhere, search, code samples", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
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
  // The dialog over the reference: a full-page image of the whole reference took 21 s.
  await page.screenshot({ path: "reports/screenshots/docs-search.png" });
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
  // Plain fetch: nothing to install, so it runs as shown (the typed client is not published).
  await expect(operation.getByText(/await fetch\(/).first()).toBeVisible();
  await expect(operation.getByText(/@personal-data-service/)).toHaveCount(0);
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

/** Opens the reference's search with "/" and types a query; answers the dialog. */
async function search(page: Page, query: string) {
  const dialog = page.getByRole("dialog");
  if ((await dialog.count()) === 0) await page.keyboard.press("/");
  const field = dialog.getByRole("combobox", { name: "Enter search query" });
  await expect(field).toBeFocused();
  await field.fill(query);
  return { dialog, field };
}

/** Every point of the field's box hit-tests to the field itself: nothing lies over it. */
async function expectNothingOver(page: Page, selector: string) {
  const covered = await page.locator(selector).evaluate((field) => {
    const box = field.getBoundingClientRect();
    const points = [0.05, 0.25, 0.5, 0.75, 0.95].flatMap((x) =>
      [0.2, 0.5, 0.8].map((y) => [box.left + box.width * x, box.top + box.height * y]),
    );
    return points
      .filter(([x = 0, y = 0]) => document.elementFromPoint(x, y) !== field)
      .map(([x, y]) => `${Math.round(x ?? 0)},${Math.round(y ?? 0)}`);
  });
  expect(covered, "points of the search field covered by another element").toEqual([]);
}

/** The element is in the viewport and what a person sees at its centre is the element itself. */
async function expectUncovered(locator: Locator) {
  await expect(locator).toBeInViewport();
  await expect
    .poll(() =>
      locator.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 40), box.top + box.height / 2);
        return hit !== null && (element === hit || element.contains(hit));
      }),
    )
    .toBe(true);
}

for (const width of [1280, 390]) {
  test(`at ${width} px: search finds tools by name, the guide entries are in the navigation, nothing overlaps the search field`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/docs");
    await page.locator(LOADED).waitFor({ timeout: 60_000 });

    // A tool with an operation: its tool name finds the operation.
    await page.locator("#api-reference").getByRole("heading", { name: "Personal Data Service API" }).first().click();
    const { dialog, field } = await search(page, "collections_list");
    await expect(dialog.getByRole("option").first()).toContainText("List collections");
    await expectNothingOver(page, '[role="dialog"] [role="combobox"]');
    // The clear button sits beside the field, not over it.
    const clear = dialog.getByRole("button", { name: /clear/i }).first();
    const [fieldBox, crossBox] = [await field.boundingBox(), await clear.boundingBox()];
    if (!fieldBox || !crossBox) throw new Error("no search field or clear button");
    expect(crossBox.x).toBeGreaterThanOrEqual(fieldBox.x + fieldBox.width - 1);

    // Every tool without a REST route: found by its name and by what it does, and opens its entry.
    for (const tool of capabilities.filter((c) => !c.http)) {
      await search(page, tool.tool);
      await expect(dialog.getByRole("option").first(), tool.tool).toContainText(tool.tool);
      await search(page, tool.description.split(/[.(]/)[0] ?? "");
      await expect(dialog.getByRole("option").filter({ hasText: tool.tool }).first(), tool.description).toBeVisible();
    }
    const play = capabilities.find((c) => !c.http);
    if (play) {
      await search(page, play.tool);
      await dialog.getByRole("option").first().click();
      await expect(page).toHaveURL(new RegExp(`#tag/${scalarSlug(play.tool)}$`));
      // On a phone the menu the search sits in closes: the entry is in view and nothing covers it.
      await expect(page.getByRole("button", { name: /close menu/i }).locator("visible=true")).toHaveCount(0);
      await expectUncovered(page.getByRole("heading", { name: play.tool, exact: true }).first());
    }
    await page.screenshot({ path: `reports/screenshots/docs-tool-entry-${width}.png` });

    // The guide entries: each found by search, each a link of the navigation that opens its section.
    for (const entry of guideEntries()) {
      await search(page, entry.title);
      await expect(dialog.getByRole("option").first(), entry.title).toContainText(entry.title);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    for (const entry of guideEntries()) {
      const link = page.getByRole("link", { name: entry.title, exact: true }).locator("visible=true").first();
      const heading = page.getByRole("heading", { name: entry.title, exact: true }).first();
      // Scalar renders the sections around the target lazily; on a busy machine one can grow after
      // its scroll and push the heading out of view (CI saw it once). A reader clicks again, so do we:
      // the link must still land its section in view, within 20 s.
      await expect(async () => {
        // On a phone the navigation is behind Scalar's menu button, which closes after each choice.
        if ((await link.count()) === 0)
          await page
            .getByRole("button", { name: /open menu/i })
            .first()
            .click();
        await expect(link).toHaveAttribute("href", `#description/${entry.slug}`);
        await link.click();
        await expect(heading).toBeInViewport({ timeout: 4_000 });
      }).toPass({ timeout: 20_000 });
      await expectUncovered(heading);
    }
    await page.screenshot({ path: `reports/screenshots/docs-guide-${width}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  });
}
