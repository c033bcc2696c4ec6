import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test as base } from "@playwright/test";

export const SCREENSHOTS = path.join(process.cwd(), "reports", "screenshots");
fs.mkdirSync(SCREENSHOTS, { recursive: true });

/** Every test fails on an uncaught page error or a console error: pages must run clean. */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()} (${message.location().url})`);
      });
      await use(errors);
      expect(errors, "JavaScript errors on the page").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export interface Account {
  email: string;
  password: string;
  handle: string;
}

/** Signs up a new member in this page's browser context and lands on the tokens page. */
export async function signUp(page: Page): Promise<Account> {
  const id = randomUUID().slice(0, 8);
  const account = { email: `e2e-${id}@example.test`, password: `pw-${randomUUID()}`, handle: `e2e_${id}` };
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  return account;
}

/** Creates a token on the tokens page with exactly these scopes and answers its secret. */
export async function createToken(page: Page, name: string, scopes: readonly string[]): Promise<string> {
  await page.goto("/settings/tokens");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Clear" }).click();
  for (const scope of scopes) await page.getByRole("checkbox", { name: scope, exact: true }).check();
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveValue(/^pds_[0-9A-Za-z]{36}$/);
  return secret.inputValue();
}

/** A form's own error; Next's route announcer also has role=alert, so match ours by class. */
export const formError = (page: Page) => page.locator('[role="alert"].error');

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
