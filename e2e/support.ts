import type { ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test as base } from "@playwright/test";
import postgres from "postgres";

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

/**
 * A fresh database on the Postgres server for a spec that starts its own server; without a server
 * the spec is skipped, except in CI where that is a failure. drop() removes it.
 */
export async function scratchDatabaseOrSkip(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end({ timeout: 1 });
    base.skip(!process.env.CI, `no Postgres server at ${adminUrl}: ${(error as Error).message}`);
    throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end({ timeout: 1 });
    },
  };
}

/**
 * Polls `${origin}/api/v1/health` twice a second for up to a minute until `read` makes something of
 * an answer (a throw or undefined: not yet); fails at once when the server process exits.
 */
export async function pollHealth<T>(
  origin: string,
  child: ChildProcess,
  output: () => string,
  read: (response: Response) => Promise<T | undefined>,
): Promise<T | undefined> {
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output()}`);
    const answer = await fetch(`${origin}/api/v1/health`)
      .then(read, () => undefined)
      .catch(() => undefined);
    if (answer !== undefined) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return undefined;
}

/** One second of a 440 Hz tone as 8 kHz 16-bit mono WAV: real audio the page can play offline. */
export function toneWav(): Buffer {
  const rate = 8000;
  const samples = rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * axe-core on the page as it stands. Legacy mode runs axe in the page's own frame: the default opens
 * a blank page per analysis to merge the results of every frame, which cost 0.3 s a check on a
 * small page and 1 s on the reference (2026-11-28), and the pages checked have no frames, which is
 * asserted so a frame added later cannot go unchecked.
 */
export function axeOf(page: Page): AxeBuilder {
  expect(page.frames(), "legacy-mode axe checks the top frame only").toHaveLength(1);
  return new AxeBuilder({ page }).setLegacyMode(true);
}
