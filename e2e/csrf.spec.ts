import { createToken, expect, signUp, test } from "./support";

test("a revoke form replayed from another site revokes nothing", async ({ page, context, request }) => {
  await signUp(page);
  const token = await createToken(page, "kept", ["todos:read"]);
  await page.reload();
  // The real revoke form (on the confirmation step), with its hidden server-action fields, copied
  // onto a page of another site.
  await page
    .getByTestId("token-row")
    .filter({ hasText: "kept" })
    .getByRole("link", { name: /Revoke/ })
    .click();
  const form = await page
    .getByTestId("revoke-confirm")
    .locator("form")
    .evaluate((element) => {
      const copy = element.cloneNode(true) as HTMLFormElement;
      copy.action = `${location.origin}/settings/tokens`;
      copy.method = "post";
      copy.enctype = "multipart/form-data";
      return copy.outerHTML;
    });
  await context.route("https://evil.example.test/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: `<!doctype html><title>evil</title>${form}` }),
  );
  const evil = await context.newPage();
  await evil.goto("https://evil.example.test/");
  await Promise.all([evil.waitForLoadState("load"), evil.locator("form button").click()]);
  await evil.waitForLoadState("networkidle");
  await evil.close();

  expect((await request.get("/api/v1/todos", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
  await page.reload();
  await page.goto("/settings/tokens");
  await expect(
    page
      .getByTestId("token-row")
      .filter({ hasText: "kept" })
      .getByRole("link", { name: /Revoke/ }),
  ).toBeVisible();
});
