import { createToken, expect, formError, screenshot, signUp, test } from "./support";

test("a block made on the blocks page refuses a follow; lifting it allows one", async ({ page, browser, request }) => {
  // A: the member who will try to follow.
  await signUp(page);
  const aToken = await createToken(page, "a", ["social:write"]);

  // B: signs up in a separate browser, finds their own id, and blocks A on the page.
  const bContext = await browser.newContext();
  const bPage = await bContext.newPage();
  const b = await signUp(bPage);
  const bToken = await createToken(bPage, "b", ["profile:read"]);
  const bProfile = await (
    await request.get("/api/v1/profile", { headers: { Authorization: `Bearer ${bToken}` } })
  ).json();
  expect(bProfile.handle).toBe(b.handle);

  await page.goto("/settings/profile");
  const aHandle = await page.getByLabel("Handle").inputValue();

  await bPage.goto("/settings/blocks");
  await bPage.getByLabel("Handle to block").fill(`@${aHandle}`);
  await bPage.getByRole("button", { name: "Block" }).click();
  await expect(bPage.getByRole("status")).toContainText(`@${aHandle} is blocked`);
  await expect(bPage.getByTestId("blocked-member")).toContainText(`@${aHandle}`);
  await screenshot(bPage, "blocks");

  const follow = () =>
    request.post("/api/v1/follows", {
      headers: { Authorization: `Bearer ${aToken}` },
      data: { followee_id: bProfile.id },
    });
  const refused = await follow();
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("write_refused");

  await bPage.getByRole("button", { name: `Unblock @${aHandle}` }).click();
  await expect(bPage.getByText("You have not blocked anyone.")).toBeVisible();
  expect((await follow()).status()).toBe(201);

  // An unknown handle is answered in the form, not with an error page.
  await bPage.getByLabel("Handle to block").fill("nobody_here_at_all");
  await bPage.getByRole("button", { name: "Block" }).click();
  await expect(formError(bPage)).toContainText("No member has the handle");
  await bContext.close();
});

test("the profile page saves through the API's rules and shows the plan read-only", async ({ page }) => {
  await signUp(page);
  await page.goto("/settings/profile");
  await page.getByLabel("Display name").fill("Ada Lovelace");
  await page.getByLabel("Bio").fill("Collector of B-sides.");
  await page.getByLabel("Time zone").fill("Europe/Berlin");
  await page.getByLabel("Everyone").check();
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toHaveText("Profile saved.");
  await page.reload();
  await expect(page.getByLabel("Display name")).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(page.getByLabel("Everyone")).toBeChecked();
  await expect(page.getByText("Plan:")).toContainText("free");
  await screenshot(page, "profile");

  // The store refuses an unknown time zone; the page shows its reason and keeps what was typed.
  await page.getByLabel("Time zone").fill("Mars/Olympus_Mons");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(formError(page)).toContainText("unknown timezone");
  await expect(page.getByLabel("Time zone")).toHaveValue("Mars/Olympus_Mons");
});
