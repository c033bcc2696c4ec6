import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "./scripts/server-runtime";
import { selfSignedCertificate } from "./test/support/self-signed";

const PORT = Number(process.env.E2E_PORT ?? 3200);
// Debian's package, never a browser downloaded by Playwright (scripts/e2e.ts installs it if missing):
// its headless shell, the build Playwright itself runs headless tests in. The same Chromium release as
// /usr/bin/chromium without the full browser behind it: the suite took a quarter less time in it
// (a11y, tokens and blocks specs: 1.7 against 2.3 minutes, 2026-11-28). CHROMIUM_PATH=/usr/bin/chromium
// runs the suite in the full browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
// e2e/oauth.spec.ts serves an OAuth client metadata document over https on 127.0.0.1 with this
// throwaway certificate; the server trusts it (NODE_EXTRA_CA_CERTS) and exempts that host.
export const E2E_TLS_DIR = path.join(process.cwd(), ".data", "e2e-tls");
const tls = selfSignedCertificate(E2E_TLS_DIR);

/** Run through `npm run e2e` (scripts/e2e.ts): it builds, empties the database dir and reports. */
export default defineConfig({
  testDir: "e2e",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  retries: 0,
  // One worker: on this 2-core machine two gave the same wall time (469 s either way, CI of
  // 2026-11-27) and starved the reference page under load. E2E_WORKERS=2 still works: spec files are
  // spread between workers, and specs that start servers of their own use ports apart.
  workers: Number(process.env.E2E_WORKERS ?? 1),
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
    // The production server (server.ts: Next for pages, the API answered directly), as npm start runs it.
    command: [process.execPath, ...SERVER_NODE_FLAGS, "server.ts"].join(" "),
    url: `http://127.0.0.1:${PORT}/api/v1/health`,
    env: {
      ...SERVER_ENV,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PGLITE_DIR: ".data/pglite-e2e",
      DATABASE_URL: "",
      REDIS_URL: "",
      // e2e/cors.spec.ts calls the API from this second origin of the same server.
      CORS_ORIGINS: `http://localhost:${PORT}`,
      NEXT_TELEMETRY_DISABLED: "1",
      // The delivery worker runs in the server (e2e/webhooks.spec.ts): a receiver on 127.0.0.1 over plain http.
      WEBHOOKS_ALLOW_HTTP: "1",
      UPKEEP_TIMER: "off",
      // e2e/assistant.spec.ts plays an audio file from a server of its own on localhost.
      RESOLVER_ALLOW_PRIVATE_HOSTS: "localhost",
      // No e2e run reaches the internet: resolves answer from the offline catalog.
      RESOLVER_PROVIDERS: "off",
      OAUTH_CLIENT_METADATA_ALLOW_HOSTS: "127.0.0.1",
      NODE_EXTRA_CA_CERTS: tls.certPath,
    },
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
