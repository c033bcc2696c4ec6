import { randomUUID } from "node:crypto";
import { expect, formError, test } from "./support";

// A server-action id of the right shape; Next checks the Origin before it looks the action up.
const ACTION_ID = `7f${"0".repeat(40)}`;

test("a state-changing page request from another site is refused with 403 and a page that says why", async ({
  request,
  baseURL,
}) => {
  const action = (origin: string, accept = "text/x-component") =>
    request.post("/settings/tokens", {
      headers: { Origin: origin, "Next-Action": ACTION_ID, Accept: accept, "Content-Type": "text/plain;charset=UTF-8" },
      data: "[]",
      maxRedirects: 0,
    });

  // Next alone answered 500 ("Invalid Server Actions request").
  const crossSite = await action("https://evil.example");
  expect(crossSite.status()).toBe(403);
  expect(crossSite.headers()["content-type"]).toContain("text/html");
  expect(await crossSite.text()).toContain("sent from another site");

  const asJson = await action("https://evil.example", "application/json");
  expect(asJson.status()).toBe(403);
  expect(asJson.headers()["content-type"]).toContain("application/problem+json");
  expect(await asJson.json()).toMatchObject({ status: 403, title: "Forbidden" });

  // A plain multipart form post (what a page on another site can send without script) and the
  // opaque origin of a sandboxed frame; an Origin with userinfo naming this host is not this host.
  const form = await request.post("/sign-in", {
    headers: { Origin: "https://evil.example" },
    multipart: { email: "a@example.test", password: "whatever-it-is" },
  });
  expect(form.status()).toBe(403);
  expect((await action("null")).status()).toBe(403);
  const host = new URL(baseURL ?? "").host;
  expect((await action(`http://evil.example@${host}`)).status()).toBe(403);
  expect(
    (await request.post("/", { headers: { Origin: "https://evil.example", "Next-Action": ACTION_ID } })).status(),
  ).toBe(403);

  // The same request from this site reaches Next, which answers an unknown action itself.
  expect((await action(new URL(baseURL ?? "").origin)).status()).not.toBe(403);
});

test("a client rotating X-Forwarded-For is still throttled on sign-in: the server counts the socket's address", async ({
  page,
}) => {
  const email = `nobody-${randomUUID().slice(0, 8)}@example.test`;
  await page.goto("/sign-in");
  const answers: string[] = [];
  // Five failures are free per email + address; the pause after them doubles (1 s, 2 s, 4 s …), so
  // within eight quick attempts one is refused. The email-wide count alone would allow twenty.
  for (let attempt = 1; attempt <= 8; attempt++) {
    await page.setExtraHTTPHeaders({
      "X-Forwarded-For": `198.51.100.${attempt}`,
      "X-Real-IP": `198.51.100.${attempt}`,
    });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`wrong password ${attempt}`);
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/sign-in")),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    // React resets the form once the action's answer is rendered; filling before that would be undone.
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(formError(page)).toBeVisible();
    answers.push((await formError(page).textContent()) ?? "");
  }
  expect(answers.slice(0, 5)).toEqual(Array(5).fill("That email and password do not match an account."));
  expect(answers.some((answer) => answer.startsWith("Too many failed attempts."))).toBe(true);
});
