import type { Cookie } from "@playwright/test";
import { PAGES, SCHEMES, WIDTHS } from "./pages";
import { axeOf, expect, SCREENSHOTS, signUp, test } from "./support";

/**
 * axe-core on every page (e2e/pages.ts) at 1280 and 390 wide, in light and dark: no serious or
 * critical violation. Every rule runs in the first scheme; the second changes only colours (the
 * pages switch through CSS variables, the same DOM; the reference's Scalar follows the system's
 * scheme too), so there the rules that read colours run.
 * Screenshots of each land in reports/screenshots/a11y-<page>-<width>-<scheme>.png.
 */
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

// The member pages only read: one member per worker, signed up once, serves all of them.
let member: Cookie[] | undefined;
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  await signUp(await context.newPage());
  member = (await context.storageState()).cookies;
  await context.close();
});

for (const site of PAGES) {
  test(`${site.name} has no serious accessibility violation, light or dark`, async ({ page, pageErrors }) => {
    // The reference (Scalar) loads four times, as long as docs.spec.ts allows it on a busy machine.
    test.setTimeout(site.ready ? 300_000 : 120_000);
    if (site.member) await page.context().addCookies(member ?? []);
    for (const size of WIDTHS) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const [index, scheme] of SCHEMES.entries()) {
        await page.emulateMedia({ colorScheme: scheme });
        if (index === 0) {
          const response = await page.goto(site.path);
          expect(response?.status(), site.path).toBe(site.status ?? 200);
          if (site.ready) await page.locator(site.ready).waitFor({ timeout: 60_000 });
        }
        const axe = axeOf(page);
        const results = await (index === 0 ? axe.withTags(WCAG) : axe.withRules(COLOUR_RULES)).analyze();
        const serious = results.violations
          .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
          .map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            help: violation.help,
            targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
          }));
        expect(serious, `${site.path} at ${size.width}px, ${scheme}`).toEqual([]);
        await page.screenshot({ path: `${SCREENSHOTS}/a11y-${site.name}-${size.name}-${scheme}.png` });
      }
    }
    if (site.status === 404) expectedNotFound(pageErrors);
  });
}

/** Chromium logs the 404 of the page itself as a console error; that one is expected. */
function expectedNotFound(pageErrors: string[]): void {
  const rest = pageErrors.filter((error) => !error.includes("status of 404 (Not Found)"));
  pageErrors.splice(0, pageErrors.length, ...rest);
}

test("the focus ring is visible on links and buttons", async ({ page }) => {
  await page.goto("/sign-in");
  await page.keyboard.press("Tab");
  const outline = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return { tag: element.tagName, width: style.outlineWidth, style: style.outlineStyle };
  });
  expect(outline.style).toBe("solid");
  expect(Number.parseFloat(outline.width)).toBeGreaterThanOrEqual(2);
});

test("dark mode follows the system through the colour variables", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/docs/errors");
  const light = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(light).not.toBe(dark);
  const [r, g, b] = (dark.match(/\d+/g) ?? []).map(Number);
  expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(120);

  // The reference (Scalar) follows a change of scheme while it is open, without a reload.
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/docs");
  await page.locator("#api-reference[data-loaded]").waitFor({ timeout: 60_000 });
  await expect(page.locator("body")).toHaveClass(/\blight-mode\b/);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("body")).toHaveClass(/\bdark-mode\b/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("body")).toHaveClass(/\blight-mode\b/);
});

test("the 404 page is ours, and code blocks take keyboard focus", async ({ page, pageErrors }) => {
  const response = await page.goto("/nothing/here");
  expect(response?.status()).toBe(404);
  expectedNotFound(pageErrors);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page does not exist");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
  await page.goto("/docs/tools");
  const pre = page.locator("pre").first();
  await page.locator("details > summary").first().click();
  await expect(pre).toHaveAttribute("tabindex", "0");
  await pre.focus();
  await expect(pre).toBeFocused();
});
