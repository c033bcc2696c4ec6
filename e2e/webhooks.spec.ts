import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { createToken, expect, SCREENSHOTS, screenshot, signUp, test } from "./support";

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

async function receiver() {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, close: () => server.close() };
}

test("add an endpoint, see its secret once, get a signed item.created within a second, ping, retry, rotate", async ({
  page,
  request,
}) => {
  const hook = await receiver();
  try {
    await signUp(page);
    const token = await createToken(page, "webhooks e2e", ["collections:write", "items:read", "items:write"]);
    await page.goto("/settings/webhooks");
    await expect(page.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
    await screenshot(page, "webhooks-empty");
    await page.getByLabel("URL").fill(hook.url);
    await page.getByLabel("Description").fill("local receiver");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = page.getByTestId("webhook-secret");
    await expect(secretBox).toHaveValue(/^whsec_[A-Za-z0-9+/]+=*$/);
    const secret = await secretBox.inputValue();
    // The one-time secret is where the eyes and the screen reader are, not above the view.
    await expect(secretBox).toBeFocused();
    await expect(secretBox).toBeInViewport();
    await screenshot(page, "webhooks-created");

    const auth = { Authorization: `Bearer ${token}` };
    const collection = await request.post("/api/v1/collections", {
      headers: auth,
      data: { name: "e2e", type: "music" },
    });
    expect(collection.status()).toBe(201);
    const found = await request.get("/api/v1/search?q=a", { headers: auth });
    const songId = (await found.json()).data?.[0]?.id;
    expect(songId, "the seed catalog has entries").toBeTruthy();
    const started = Date.now();
    const item = await request.post("/api/v1/items", {
      headers: auth,
      data: { collection_id: (await collection.json()).id, song_id: songId },
    });
    expect(item.status()).toBe(201);
    await expect
      .poll(() => hook.hits.some((hit) => JSON.parse(hit.body).type === "item.created"), { timeout: 5000 })
      .toBe(true);
    const created = hook.hits.find((hit) => JSON.parse(hit.body).type === "item.created");
    if (!created) throw new Error("no item.created");
    expect(created.at - started).toBeLessThan(1000);
    const payload = new Webhook(secret).verify(created.body, {
      "webhook-id": String(created.headers["webhook-id"]),
      "webhook-timestamp": String(created.headers["webhook-timestamp"]),
      "webhook-signature": String(created.headers["webhook-signature"]),
    }) as { data: unknown };
    expect(payload.data).toEqual(await item.json());

    // Shown once: gone after a reload; the log lists the deliveries.
    await page.reload();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    const log = page.getByTestId("delivery-log");
    await expect(log).toContainText("item.created");
    await expect(log).toContainText("delivered");

    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => hook.hits.some((hit) => JSON.parse(hit.body).type === "webhook_endpoint.ping")).toBe(true);
    await page.reload();
    await expect(log).toContainText("webhook_endpoint.ping");
    const before = hook.hits.length;
    await page.getByRole("button", { name: /Retry item.created/ }).click();
    await expect.poll(() => hook.hits.length).toBeGreaterThan(before);
    await screenshot(page, "webhooks-log");

    // Rotated on a phone: the new secret is scrolled to and focused there too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByTestId("webhook-secret")).not.toHaveValue(secret);
    await expect(page.getByTestId("webhook-secret")).toHaveValue(/^whsec_/);
    await expect(page.getByTestId("webhook-secret")).toBeFocused();
    await expect(page.getByTestId("webhook-secret")).toBeInViewport();
    await page.screenshot({ path: `${SCREENSHOTS}/webhooks-rotated-phone-view.png` });
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "webhooks-phone");
  } finally {
    hook.close();
  }
});
