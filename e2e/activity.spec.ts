import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createToken, expect, screenshot, signUp, test } from "./support";

/** An assistant's MCP connection with the member's token, as a client would open it. */
async function mcp(baseURL: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "e2e-assistant", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

test("an agent deletes an item and renames a collection over MCP; the member sees it and undoes both from the activity page", async ({
  page,
  request,
  baseURL,
}) => {
  await signUp(page);
  const token = await createToken(page, "assistant", [
    "collections:read",
    "collections:write",
    "items:read",
    "items:write",
  ]);
  const readOnly = await createToken(page, "reader", ["items:read"]);
  const auth = { Authorization: `Bearer ${token}` };
  const collection = await (
    await request.post("/api/v1/collections", { headers: auth, data: { name: "Road trip", type: "music" } })
  ).json();
  const songId = (await (await request.get("/api/v1/search?q=a", { headers: auth })).json()).data?.[0]?.id;
  expect(songId, "the seed catalog has entries").toBeTruthy();
  const item = await (
    await request.post("/api/v1/items", {
      headers: auth,
      data: { collection_id: collection.id, song_id: songId, note: "keep me" },
    })
  ).json();

  const agent = await mcp(baseURL ?? "", token);
  try {
    expect((await agent.callTool({ name: "items_delete", arguments: { id: item.id } })).isError).toBeFalsy();
    expect(
      (
        await agent.callTool({
          name: "collections_update",
          arguments: { id: collection.id, name: "Renamed by the agent" },
        })
      ).isError,
    ).toBeFalsy();
  } finally {
    await agent.close();
  }
  expect((await request.get(`/api/v1/items/${item.id}`, { headers: auth })).status()).toBe(404);
  // A read-only token's write is refused, and the attempt is in its activity.
  const refused = await request.post("/api/v1/items", {
    headers: { Authorization: `Bearer ${readOnly}` },
    data: { collection_id: collection.id, song_id: songId },
  });
  expect(refused.status()).toBe(403);

  await page.goto("/settings/activity");
  await expect(page.getByRole("link", { name: "Activity" })).toHaveAttribute("aria-current", "page");
  const entries = page.getByTestId("activity-entry");
  const deleted = entries.filter({ hasText: item.id }).filter({ hasText: "Deleted item" });
  const renamed = entries.filter({ hasText: collection.id }).filter({ hasText: "Updated collection" });
  await expect(deleted).toContainText("MCP");
  await expect(renamed).toContainText("Token “assistant”");
  await expect(entries.filter({ hasText: "Create an item" })).toContainText("Refused: 403 insufficient_scope");
  await expect(deleted.getByRole("link", { name: item.id })).toHaveAttribute("href", `/api/v1/items/${item.id}`);
  await screenshot(page, "activity");

  // Only the reader's activity when filtered by it.
  await page.getByLabel("Token or app").selectOption({ label: `Token “reader” (…${readOnly.slice(-4)})` });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(entries).toHaveCount(1);
  await page.goto("/settings/activity");

  await deleted.getByRole("button", { name: /^Undo/ }).click();
  await expect(deleted).toContainText("undone");
  await renamed.getByRole("button", { name: /^Undo/ }).click();
  await expect(renamed).toContainText("undone");

  expect(await (await request.get(`/api/v1/items/${item.id}`, { headers: auth })).json()).toEqual(item);
  const back = await (await request.get(`/api/v1/collections/${collection.id}`, { headers: auth })).json();
  expect(back).toMatchObject({ id: collection.id, name: "Road trip", description: collection.description });
});

test("undo refuses when the record changed since, and says what changed", async ({ page, request }) => {
  await signUp(page);
  const token = await createToken(page, "assistant", ["todos:read", "todos:write"]);
  const auth = { Authorization: `Bearer ${token}` };
  const todo = await (await request.post("/api/v1/todos", { headers: auth, data: { title: "Buy milk" } })).json();
  await request.patch(`/api/v1/todos/${todo.id}`, { headers: auth, data: { title: "Buy oat milk" } });
  const other = await createToken(page, "other", ["todos:write"]);
  await request.patch(`/api/v1/todos/${todo.id}`, {
    headers: { Authorization: `Bearer ${other}` },
    data: { notes: "2 litres" },
  });
  await page.goto("/settings/activity");
  const updated = page
    .getByTestId("activity-entry")
    .filter({ hasText: "Updated todo" })
    .filter({ hasText: "Token “assistant”" });
  await updated.getByRole("button", { name: /^Undo/ }).click();
  await expect(updated.getByRole("alert")).toContainText("changed since");
  await expect(updated.getByRole("alert")).toContainText('"notes" is now "2 litres"');
  expect((await (await request.get(`/api/v1/todos/${todo.id}`, { headers: auth })).json()).title).toBe("Buy oat milk");
});
