import { capabilities } from "../registry/capabilities";
import { resources } from "../registry/index";
import { expect, test } from "./support";

test("the reference is public, lists every resource and tool, and loads nothing from elsewhere", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Personal Data Service API");
  for (const resource of resources) {
    const section = page.locator(`#resource-${resource.name}`);
    await expect(section.getByRole("heading", { level: 3, name: resource.name, exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Reference contents" }).getByRole("link", { name: resource.name, exact: true })).toBeVisible();
  }
  // Every capability has its tool card, and its operation when it has a REST route.
  const ids = new Set(await page.evaluate(() => [...document.querySelectorAll("[id]")].map((element) => element.id)));
  const missing = capabilities.flatMap((capability) => [
    ...(ids.has(`tool-${capability.tool}`) ? [] : [`tool-${capability.tool}`]),
    ...(capability.http && !ids.has(`op-${capability.tool}`) ? [`op-${capability.tool}`] : []),
  ]);
  expect(missing).toEqual([]);
  // Every problem's `type` points at an anchor here.
  await expect(page.locator("#error-insufficient_scope")).toHaveCount(1);
  await expect(page.locator("#design-decisions")).toBeVisible();
  await expect(page.locator("#op-collections_create")).toContainText("Idempotency-Key");
  await expect(page.locator("#op-collections_list")).toContainText("Paginated");

  const foreign = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>("script[src], link[href]")]
      .map((element) => ("src" in element ? element.src : element.href))
      .filter((url) => new URL(url).origin !== location.origin),
  );
  expect(foreign).toEqual([]);
  await page.screenshot({ path: "reports/screenshots/docs.png" });
  await page.locator("#resource-collections").scrollIntoViewIfNeeded();
  await page.locator("#op-collections_create").screenshot({ path: "reports/screenshots/docs-operation.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs#resource-items");
  await expect(page.locator("#resource-items")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: "reports/screenshots/docs-phone.png" });
});
