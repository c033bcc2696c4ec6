import { createToken, expect, screenshot, signUp, test } from "./support";

/**
 * CORS in a real browser: the server lists http://localhost:<port> in CORS_ORIGINS (playwright.config.ts),
 * so a page there may call http://127.0.0.1:<port>/api/v1 with a Bearer token, preflight included; a
 * page on any other origin cannot read an answer.
 */
test("a browser app on an allowed origin calls the API with a Bearer token; another origin cannot", async ({
  page,
  baseURL,
  pageErrors,
}) => {
  test.setTimeout(60_000);
  const site = new URL(baseURL ?? "http://127.0.0.1:3200");
  await signUp(page);
  const token = await createToken(page, "cors", ["collections:read", "collections:write"]);
  const api = `${site.origin}/api/v1/collections`;
  const call = async ({ api, token }: { api: string; token: string }) => {
    try {
      const created = await fetch(api, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Idempotency-Key": crypto.randomUUID(),
        },
        body: JSON.stringify({ name: "From another origin", type: "music" }),
      });
      const list = await fetch(`${api}?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
      const body = (await list.json()) as { data: { name: string }[] };
      return {
        created: created.status,
        listed: list.status,
        name: body.data[0]?.name,
        rateLimit: list.headers.get("RateLimit"),
        requestId: list.headers.get("Request-Id"),
        link: list.headers.get("Link"),
      };
    } catch (error) {
      return { blocked: String(error) };
    }
  };

  await page.goto(`http://localhost:${site.port}/docs/errors`);
  const allowed = await page.evaluate(call, { api, token });
  expect(allowed).toMatchObject({ created: 201, listed: 200, name: "From another origin" });
  // Exposed headers are readable from the other origin.
  expect(allowed).toMatchObject({ rateLimit: expect.stringContaining("token"), requestId: expect.any(String) });
  await page.evaluate(
    (text) => {
      document.body.insertAdjacentHTML("afterbegin", `<pre id="cors-result" style="padding:1rem">${text}</pre>`);
    },
    `fetch from ${`http://localhost:${site.port}`} to ${api}:\n${JSON.stringify(allowed, null, 2)}`,
  );
  await screenshot(page, "cors-allowed-origin");

  await page.route("http://refused.localhost/", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: "<!doctype html><title>Another site</title><h1>Another site</h1>",
    }),
  );
  await page.goto("http://refused.localhost/");
  const refused = await page.evaluate(call, { api, token });
  expect(refused).toHaveProperty("blocked");
  // The browser reports the refusal on the console; that is the point of this test, not a page error.
  const rest = pageErrors.filter((error) => !/CORS policy|Failed to load resource|ERR_FAILED/.test(error));
  pageErrors.splice(0, pageErrors.length, ...rest);
});
