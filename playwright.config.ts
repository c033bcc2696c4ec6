import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3200);
// Debian's package, never a browser downloaded by Playwright (scripts/e2e.ts installs it if missing).
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Run through `npm run e2e` (scripts/e2e.ts): it builds, empties the database dir and reports. */
export default defineConfig({
  testDir: "e2e",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  retries: 0,
  workers: 1,
  fullyParallel: false,
  reporter: [["list"]],
  // Playwright empties outputDir on each run; screenshots we keep go to reports/screenshots.
  outputDir: "test-results/e2e",
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: "off", screenshot: "only-on-failure" },
  projects: [
    {
      name: "debian-chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            "--autoplay-policy=no-user-gesture-required",
          ],
        },
      },
    },
  ],
  webServer: {
    command: `node_modules/.bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/v1/health`,
    env: {
      PGLITE_DIR: ".data/pglite-e2e",
      DATABASE_URL: "",
      REDIS_URL: "",
      NEXT_TELEMETRY_DISABLED: "1",
      // The delivery worker runs in the server (e2e/webhooks.spec.ts): a receiver on 127.0.0.1 over plain http.
      WEBHOOKS_ALLOW_HTTP: "1",
    },
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
