import http from "node:http";
import type { AddressInfo } from "node:net";
import { axeOf, expect, screenshot, signUp, test, toneWav } from "./support";

test("the tool console runs a server tool and carries out browser directives", async ({ page, context }) => {
  // A member's own audio host, on this machine: the server checks the link is audio (Content-Type)
  // before it answers the directive (playwright.config.ts exempts localhost from the SSRF guard).
  const audioHost = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "audio/wav" });
    res.end(toneWav());
  });
  await new Promise<void>((resolve) => audioHost.listen(0, "localhost", resolve));
  const audioUrl = `http://localhost:${(audioHost.address() as AddressInfo).port}/tone.wav`;
  // The outside world is replayed locally: the page a stub.
  await context.route("https://pages.example.test/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>Opened</title><h1>Opened</h1>" }),
  );
  const account = await signUp(page);
  await page.goto("/settings/assistant");
  const tool = page.getByRole("combobox", { name: "Tool", exact: true });

  await tool.selectOption("profile_get");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-status")).toHaveText("200 ok");
  await expect(page.getByTestId("result-json")).toContainText(account.handle);
  // With an answer shown, the page still has no serious violation (the result block takes keyboard focus).
  const axe = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await tool.selectOption("play_song");
  await page.getByLabel("url").fill(audioUrl);
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-json")).toContainText('"type": "play_media"');
  await expect(page.getByTestId("player-state")).toContainText("Playing.");
  // "Playing." follows the play event; the clock moves a moment later (CI once read 0 under load).
  await expect
    .poll(() =>
      page.getByTestId("player").evaluate((audio: HTMLAudioElement) => !audio.paused && audio.currentTime > 0),
    )
    .toBe(true);
  await screenshot(page, "assistant-play");

  await tool.selectOption("listen");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("listener")).toContainText("Listening");
  await screenshot(page, "assistant-listen");
  await page.getByRole("button", { name: "Stop listening" }).click();
  await expect(page.getByTestId("listener")).toContainText("Stopped listening.");

  await tool.selectOption("open_url");
  await page.getByLabel("url").fill("https://pages.example.test/hello");
  page.once("dialog", (dialog) => dialog.accept());
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(await popup).toHaveURL("https://pages.example.test/hello");
  await expect(page.getByTestId("opener")).toContainText("Opened in a new tab.");
  audioHost.close();

  // A refused input comes back as the problem body, field by field.
  await tool.selectOption("open_url");
  await page.getByLabel("url").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-status")).toHaveText("422 error");
});

test("play_song shows the platform's player; switching tools clears the result and stops the microphone", async ({
  page,
  context,
}) => {
  // Players are replayed locally: the spec checks which player the page asks for, not the platforms.
  await context.route(
    /^https:\/\/(open\.spotify\.com|www\.youtube-nocookie\.com|embed\.music\.apple\.com|widget\.deezer\.com)\//,
    (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<title>player</title><p>player stub</p>" }),
  );
  // Record every microphone track the page opens, to check that it is stopped later.
  await page.addInitScript(() => {
    const tracks: MediaStreamTrack[] = [];
    (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks = tracks;
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      tracks.push(...stream.getTracks());
      return stream;
    };
  });
  await signUp(page);
  await page.goto("/settings/assistant");
  const tool = page.getByRole("combobox", { name: "Tool", exact: true });

  // A phrase where an id belongs is refused with a message that says what to send instead.
  await tool.selectOption("play_song");
  await page.getByLabel("song_id").fill("Kitchen Kid Cudi");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-status")).toHaveText("422 error");
  await expect(page.getByTestId("result-json")).toContainText("send the phrase as query");

  await page.getByLabel("song_id").fill("");
  await page.getByLabel("query").fill("Kitchen Kid Cudi");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-status")).toHaveText("200 ok");
  const embed = page.getByTestId("player-embed");
  await expect(embed).toHaveAttribute("src", "https://open.spotify.com/embed/track/0Jcij1eWd5bDMU5iPbxe2i");
  await page.getByRole("button", { name: "YouTube", exact: true }).click();
  await expect(embed).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/w3LJ2bDvDJs");
  await page.getByRole("button", { name: "Deezer", exact: true }).click();
  await expect(embed).toHaveAttribute("src", "https://widget.deezer.com/widget/auto/track/138127073");
  await expect(page.getByRole("link", { name: "Open in Spotify" })).toHaveAttribute(
    "href",
    "https://open.spotify.com/track/0Jcij1eWd5bDMU5iPbxe2i",
  );
  await screenshot(page, "assistant-play-embed");

  // Switching tools clears the player.
  await tool.selectOption("listen");
  await expect(page.getByTestId("player-embed")).toHaveCount(0);
  await expect(page.getByText("Run a tool to see its answer here.")).toBeVisible();
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("listener")).toContainText("Listening");
  const live = () =>
    page.evaluate(() =>
      (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.map((track) => track.readyState),
    );
  expect(await live()).toEqual(["live"]);
  // …and stops the microphone.
  await tool.selectOption("profile_get");
  await expect(page.getByTestId("listener")).toHaveCount(0);
  await expect.poll(live).toEqual(["ended"]);
  await screenshot(page, "assistant-switched");
});
