import { expect, screenshot, signUp, test } from "./support";

/** One second of a 440 Hz tone as 8 kHz 16-bit mono WAV: real audio the page can play offline. */
function toneWav(): Buffer {
  const rate = 8000;
  const samples = rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
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

test("the tool console runs a server tool and carries out browser directives", async ({ page, context }) => {
  // The outside world is replayed locally: the track URL answers a real WAV, the page a stub.
  await context.route("https://media.example.test/**", (route) =>
    route.fulfill({ status: 200, contentType: "audio/wav", body: toneWav() }),
  );
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

  await tool.selectOption("play_song");
  await page.getByLabel("url").fill("https://media.example.test/tone.wav");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-json")).toContainText('"type": "play_media"');
  await expect(page.getByTestId("player-state")).toContainText("Playing.");
  expect(await page.getByTestId("player").evaluate((audio: HTMLAudioElement) => !audio.paused && audio.currentTime > 0)).toBe(true);
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

  // A refused input comes back as the problem body, field by field.
  await tool.selectOption("open_url");
  await page.getByLabel("url").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("result-status")).toHaveText("422 error");
});
