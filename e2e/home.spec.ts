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
