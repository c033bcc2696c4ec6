import { createToken, expect, formError, screenshot, signUp, test } from "./support";

test("sign up, make a two-scope token, use it, revoke it", async ({ page, request }) => {
  await page.goto("/sign-up");
  await screenshot(page, "sign-up");
  await signUp(page);
  await screenshot(page, "tokens-empty");
  const token = await createToken(page, "e2e script", ["collections:read", "items:read"]);
  await expect(page.getByRole("heading", { name: /created/ })).toBeVisible();
  await screenshot(page, "tokens-created");
  // Fits a phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "tokens-phone");
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

  await row.getByRole("button", { name: /Revoke/ }).click();
  await expect(row).toContainText("revoked");
  const revoked = await request.get("/api/v1/collections", { headers: auth });
  expect(revoked.status()).toBe(401);
  await screenshot(page, "tokens-revoked");
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
