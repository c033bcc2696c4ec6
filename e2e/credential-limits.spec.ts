import type { APIRequestContext, Page } from "@playwright/test";
import { SCOPES } from "../registry/scopes";
import { createToken, expect, screenshot, signUp, test } from "./support";

const json = { "Content-Type": "application/json" };

async function makeCollection(request: APIRequestContext, token: string, name: string): Promise<string> {
  const created = await request.post("/api/v1/collections", {
    headers: { Authorization: `Bearer ${token}`, ...json },
    data: { name, type: "music" },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).id;
}

/** Nothing on the page is wider than the screen. */
async function fitsScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test("a token limited to one collection that confirms deletes: made on the token page, confirmed on the confirmations page", async ({
  page,
  request,
}) => {
  await signUp(page);
  const full = await createToken(page, "setup", SCOPES);
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const roadTrip = await makeCollection(request, full, "Road trip");
  await makeCollection(request, full, "Secret");
  const found = await request.get("/api/v1/search?q=a", { headers: auth(full) });
  const songId = (await found.json()).data?.[0]?.id;
  expect(songId, "the seed catalog has entries").toBeTruthy();
  const item = await request.post("/api/v1/items", {
    headers: { ...auth(full), ...json },
    data: { collection_id: roadTrip, song_id: songId },
  });
  expect(item.status()).toBe(201);
  const itemId = (await item.json()).id;

  // The form: limits below the scopes, at both widths.
  await page.goto("/settings/tokens");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator("summary", { hasText: "Only these tools" }).click();
    await expect(page.getByRole("checkbox", { name: /items_delete/ })).toBeVisible();
    await fitsScreen(page);
    await screenshot(page, `token-limits-form-${width}`);
    await page.locator("summary", { hasText: "Only these tools" }).click();
  }
  await page.getByLabel("Name").fill("careful assistant");
  await page.getByRole("button", { name: "Clear" }).click();
  for (const scope of ["collections:read", "items:read", "items:write"]) {
    await page.getByRole("checkbox", { name: scope, exact: true }).check();
  }
  await page.getByRole("checkbox", { name: /Road trip/ }).check();
  await page.getByRole("checkbox", { name: /Confirm deletes/ }).check();
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByTestId("new-token").inputValue();
  expect(token).toMatch(/^pds_/);

  await page.reload();
  const row = page.getByTestId("token-row").filter({ hasText: "careful assistant" });
  await expect(row.getByTestId("token-limits")).toContainText("collections: Road trip");
  await expect(row.getByTestId("token-limits")).toContainText("confirm deletes");
  await expect(page.getByTestId("token-row").filter({ hasText: "setup" }).getByTestId("token-limits")).toContainText(
    "none",
  );

  // The store shows it only its collection.
  const listed = await (await request.get("/api/v1/collections", { headers: auth(token) })).json();
  expect(listed.data.map((c: { name: string }) => c.name)).toEqual(["Road trip"]);

  // A tool delete is held: a directive, and the item is still there.
  const held = await request.post("/api/agent/invoke", {
    headers: { ...auth(token), ...json },
    data: { tool: "items_delete", input: { id: itemId } },
  });
  expect(held.status()).toBe(202);
  const { directive } = await held.json();
  expect(directive).toMatchObject({ type: "confirm_delete", resource: "item", id: itemId });
  expect((await request.get(`/api/v1/items/${itemId}`, { headers: auth(full) })).status()).toBe(200);

  // The member opens the link, sees what would go, and confirms.
  const link = new URL(directive.url);
  await page.goto(`${link.pathname}${link.search}`);
  const card = page.getByTestId("held-delete");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Delete item");
  await expect(card).toContainText("careful assistant");
  await expect(card).toContainText("in Road trip");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await fitsScreen(page);
    await screenshot(page, `confirm-delete-${width}`);
  }
  expect((await request.get(`/api/v1/items/${itemId}`, { headers: auth(full) })).status()).toBe(200);
  await card.getByRole("button", { name: /Delete it/ }).click();
  await expect(page.getByTestId("confirm-result")).toHaveText("Deleted.");
  await expect(page.getByTestId("held-delete")).toHaveCount(0);
  expect((await request.get(`/api/v1/items/${itemId}`, { headers: auth(full) })).status()).toBe(404);
});

test("keeping a held delete deletes nothing", async ({ page, request }) => {
  await signUp(page);
  const full = await createToken(page, "setup", SCOPES);
  const collection = await makeCollection(request, full, "Keep me");
  await page.goto("/settings/tokens");
  await page.getByLabel("Name").fill("asks first");
  await page.getByRole("button", { name: "Everything" }).click();
  await page.getByRole("checkbox", { name: /Confirm deletes/ }).check();
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByTestId("new-token").inputValue();
  const rest = await request.delete(`/api/v1/collections/${collection}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(rest.status()).toBe(403);
  expect((await rest.json()).code).toBe("confirmation_required");
  await page.goto("/settings/confirmations");
  await page
    .getByTestId("held-delete")
    .getByRole("button", { name: /Keep it/ })
    .click();
  await expect(page.getByTestId("confirm-result")).toHaveText("Kept: nothing was deleted.");
  expect(
    (await request.get(`/api/v1/collections/${collection}`, { headers: { Authorization: `Bearer ${full}` } })).status(),
  ).toBe(200);
});
