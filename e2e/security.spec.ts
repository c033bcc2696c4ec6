import { expect, formError, screenshot, signUp, test } from "./support";

test("change the password and see, then end, another browser's session", async ({ page, browser }) => {
  const account = await signUp(page);
  // A second browser signs in as the same member.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/sign-in");
  await otherPage.getByLabel("Email").fill(account.email);
  await otherPage.getByLabel("Password").fill(account.password);
  await otherPage.getByRole("button", { name: "Sign in" }).click();
  await expect(otherPage).toHaveURL(/\/settings\/tokens$/);

  await page.goto("/settings/security");
  await expect(page.getByTestId("session")).toHaveCount(2);
  await expect(page.getByTestId("session").filter({ hasText: "this browser" })).toHaveCount(1);
  await screenshot(page, "settings-security");
  await page.getByRole("button", { name: "End session" }).click();
  await expect(page.getByTestId("session")).toHaveCount(1);
  await otherPage.goto("/settings/tokens");
  await expect(otherPage).toHaveURL(/\/sign-in$/);
  await other.close();

  await page.getByLabel("Current password").fill("not the password");
  await page.getByLabel("New password", { exact: true }).fill("a brand new password");
  await page.getByLabel("New password again").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(formError(page)).toHaveText("The current password is not right.");
  await page.getByLabel("Current password").fill(account.password);
  await page.getByLabel("New password", { exact: true }).fill("a brand new password");
  await page.getByLabel("New password again").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("a brand new password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings\/tokens$/);
});
