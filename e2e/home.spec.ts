import { expect, screenshot, signUp, test } from "./support";

test("the home page leads a newcomer to sign-up and the reference, and a member to tokens", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Personal Data Service");
  await expect(page.getByRole("main").getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/sign-up");
  await expect(page.getByRole("main").getByRole("link", { name: /Every resource/ })).toHaveAttribute("href", "/docs");
  await screenshot(page, "home");

  await signUp(page);
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Create a personal access token" })).toHaveAttribute(
    "href",
    "/settings/tokens",
  );
});

// Browsers ask for /favicon.ico on their own (before the page's <link rel=icon> is read, or on a page
// without one); a 404 there is a console error on every such page, which CI once caught.
test("the site's icon answers at /favicon.ico as well as /icon.svg", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toBe("image/x-icon");
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const svg = await request.get("/icon.svg");
  expect(svg.status()).toBe(200);
});
