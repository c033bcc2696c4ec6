import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { closeDb } from "@/lib/db";
import { type FakeGoTrue, startFakeGoTrue } from "../test/support/fake-gotrue/server";
import { expect, pollHealth, scratchDatabaseOrSkip, test } from "./support";

/**
 * Supabase mode end to end: the production server (server.ts) configured with a Supabase project whose Auth is the local
 * fake GoTrue (test/support/fake-gotrue), both on one fresh Postgres database as on Supabase. The
 * browser signs up and in through @supabase/ssr (proxy.ts refreshing the cookie), makes a token on
 * /settings/tokens, and the token's requests run as the JWT's sub.
 */
const ROOT = process.cwd();
// Apart from next-router.spec.ts (+60) and docker-run-stage.spec.ts (+50, +51): two workers run them at once.
const PORT = Number(process.env.E2E_PORT ?? 3200) + 70;
const BASE = `http://127.0.0.1:${PORT}`;

let gotrue: FakeGoTrue | undefined;
let server: ChildProcess | undefined;
let cleanUp = async () => {};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const database = await scratchDatabaseOrSkip("pds_sb");
  // The fake GoTrue writes auth.users of the same database, as GoTrue does on Supabase.
  const previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = database.url;
  gotrue = await startFakeGoTrue();
  const started = spawn(process.execPath, [path.join(ROOT, "server.ts")], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: database.url,
      NEXT_PUBLIC_SUPABASE_URL: gotrue.url,
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: gotrue.publishableKey,
      SUPABASE_SECRET_KEY: gotrue.secretKey,
      UPKEEP_TIMER: "off",
      REDIS_URL: "",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  server = started;
  let stderr = "";
  started.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  cleanUp = async () => {
    await closeDb();
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
    await database.drop();
  };
  const ready = await pollHealth(
    BASE,
    started,
    () => stderr,
    async (response) => response.ok || undefined,
  );
  if (!ready) throw new Error(`server.ts did not answer: ${stderr}`);
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await gotrue?.close();
  await cleanUp();
});

test("a member of the product signs in with Supabase Auth, makes a token, and the token acts as the same auth.uid()", async ({
  page,
}) => {
  const email = `sb-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  await page.goto(`${BASE}/sign-up`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  const cookies = await page.context().cookies();
  expect(cookies.some((cookie) => cookie.name.startsWith("sb-") && cookie.name.includes("auth-token"))).toBe(true);
  expect(cookies.some((cookie) => cookie.name === "pds_session")).toBe(false);

  await page.getByLabel("Name").fill("from supabase");
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByRole("checkbox", { name: "profile:read", exact: true }).check();
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveValue(/^pds_[0-9A-Za-z]{36}$/);
  const token = await secret.inputValue();

  const admin = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
  const [user] = await admin<{ id: string }[]>`select id from auth.users where email = ${email}`;
  await admin.end({ timeout: 1 });
  expect(user?.id).toMatch(/^[0-9a-f-]{36}$/);
  const profile = await fetch(`${BASE}/api/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
  expect(profile.status).toBe(200);
  expect((await profile.json()).id).toBe(user?.id);

  await page.goto(`${BASE}/settings/security`);
  await expect(page.getByTestId("session")).toHaveCount(1);
  await expect(page.getByTestId("session")).toContainText("this browser");

  // Sign out, then in again with the same account.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings\/tokens$/);
});
