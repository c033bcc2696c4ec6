import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import ts from "typescript";
import { expect, test, toneWav } from "./support";

// The runtime exactly as an assistant's page loads it: clients/directives compiled to one ES module,
// served with a bare page and a WAV from an origin the test replays (no app, no framework).
const ORIGIN = "https://runtime.example.test";
const source = fs.readFileSync(path.join(process.cwd(), "clients", "directives", "src", "index.ts"), "utf8");
const moduleJs = ts.transpileModule(source, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
}).outputText;
const PAGE = `<!doctype html><title>runtime</title><main id="out"></main>
<script type="module">
  import { runDirective } from "/directives.js";
  window.run = (directive, options) => { window.handle = runDirective(directive, document.getElementById("out"), options); };
</script>`;

async function openRuntime(page: Page): Promise<void> {
  await page.context().route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/directives.js") return route.fulfill({ contentType: "text/javascript", body: moduleJs });
    if (url.pathname === "/preview.wav") return route.fulfill({ contentType: "audio/wav", body: toneWav() });
    return route.fulfill({ contentType: "text/html", body: PAGE });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => typeof (window as unknown as { run?: unknown }).run === "function");
}

const run = (page: Page, directive: unknown) =>
  page.evaluate((d) => (window as unknown as { run: (d: unknown) => void }).run(d), directive);

const song = {
  type: "play_media",
  title: "Kitchen",
  artwork: null,
  song_id: "7e0f7a4c-8c53-4d4e-9d38-5f1f5f3f2a11",
  links: {
    spotify: "https://open.spotify.com/track/0Jcij1eWd5bDMU5iPbxe2i",
    youtube: "https://www.youtube.com/watch?v=w3LJ2bDvDJs",
  },
};

test("a preview served by the test starts playing in an <audio> element", async ({ page }) => {
  await openRuntime(page);
  await run(page, {
    ...song,
    playable: true,
    reason: null,
    url: null,
    embeds: [],
    preview_url: `${ORIGIN}/preview.wav`,
  });
  await expect(page.getByTestId("player-state")).toHaveText("Playing.");
  await expect
    .poll(() =>
      page.getByTestId("player").evaluate((audio: HTMLAudioElement) => !audio.paused && audio.currentTime > 0),
    )
    .toBe(true);
  // stop() ends playback and empties the container.
  await page.evaluate(() => (window as unknown as { handle: { stop(): void } }).handle.stop());
  await expect(page.getByTestId("player")).toHaveCount(0);
});

test("embeds become iframes with the platform's player src, and buttons switch platform", async ({ page }) => {
  await page
    .context()
    .route(/^https:\/\/(open\.spotify\.com|www\.youtube-nocookie\.com)\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>player</title>" }),
    );
  await openRuntime(page);
  await run(page, {
    ...song,
    playable: true,
    reason: null,
    url: song.links.spotify,
    preview_url: null,
    embeds: [
      {
        platform: "spotify",
        embed_url: "https://open.spotify.com/embed/track/0Jcij1eWd5bDMU5iPbxe2i",
        open_url: song.links.spotify,
      },
      {
        platform: "youtube",
        embed_url: "https://www.youtube-nocookie.com/embed/w3LJ2bDvDJs",
        open_url: song.links.youtube,
      },
    ],
  });
  const frame = page.getByTestId("player-embed");
  await expect(frame).toHaveAttribute("src", "https://open.spotify.com/embed/track/0Jcij1eWd5bDMU5iPbxe2i");
  await expect(frame).toHaveAttribute("title", "Spotify player: Kitchen");
  await page.getByRole("button", { name: "YouTube", exact: true }).click();
  await expect(frame).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/w3LJ2bDvDJs");
  await expect(page.getByRole("button", { name: "YouTube", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("player")).toHaveCount(0);
});

test("playable: false shows the reason and the platform links, and plays nothing", async ({ page }) => {
  await openRuntime(page);
  await run(page, {
    ...song,
    playable: false,
    reason: "The catalog holds no player for this song yet.",
    url: song.links.spotify,
    embeds: [],
    preview_url: null,
  });
  await expect(page.getByTestId("not-playable")).toHaveText("The catalog holds no player for this song yet.");
  await expect(page.getByRole("link", { name: "Open in Spotify" })).toHaveAttribute("href", song.links.spotify);
  await expect(page.getByRole("link", { name: "Open in YouTube" })).toHaveAttribute("href", song.links.youtube);
  await expect(page.getByTestId("player")).toHaveCount(0);
  await expect(page.getByTestId("player-embed")).toHaveCount(0);
});

test("open_url asks first, then opens a tab; start_listening opens the microphone until stopped", async ({ page }) => {
  await openRuntime(page);
  page.once("dialog", (dialog) => dialog.dismiss());
  await run(page, { type: "open_url", url: `${ORIGIN}/elsewhere` });
  await expect(page.getByTestId("opener")).toContainText("Not opened.");
  page.once("dialog", (dialog) => dialog.accept());
  const popup = page.waitForEvent("popup");
  await page.evaluate(() => (window as unknown as { handle: { stop(): void } }).handle.stop());
  await run(page, { type: "open_url", url: `${ORIGIN}/elsewhere` });
  await expect(await popup).toHaveURL(`${ORIGIN}/elsewhere`);
  await page.evaluate(() => (window as unknown as { handle: { stop(): void } }).handle.stop());
  await run(page, { type: "start_listening", lang: "en-GB" });
  await expect(page.getByTestId("listener")).toContainText("Listening (en-GB)…");
  await page.getByRole("button", { name: "Stop listening" }).click();
  await expect(page.getByTestId("listener")).toHaveText("Stopped listening.");
});
