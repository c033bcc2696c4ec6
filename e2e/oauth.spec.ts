import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { MemoryOAuthProvider } from "../test/support/oauth-client";
import { selfSignedCertificate } from "../test/support/self-signed";
import { expect, screenshot, test } from "./support";

const PORT = Number(process.env.E2E_PORT ?? 3200);
// The server's public origin (SITE_URL unset: http://localhost:PORT): what an assistant is given.
const ORIGIN = `http://localhost:${PORT}`;
const MCP = new URL(`${ORIGIN}/api/mcp`);

/** The assistant's loopback listener (RFC 8252): the browser lands here with the code or the error. */
async function callbackServer() {
  const received: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // The browser also asks for /favicon.ico (answered empty, not 404: the page must log no error).
    if (url.pathname !== "/callback") return void res.writeHead(204).end();
    received.push(url.searchParams);
    res
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>Done</title><p>You can close this window.</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Opens the authorization URL as the member's browser would, signing up first (returning to consent). */
async function signUpThroughConsent(page: Page, authorizationUrl: URL) {
  await page.goto(authorizationUrl.href);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByRole("link", { name: "Create an account" }).click();
  // The sign-in page has an Email field too: wait for the sign-up page before typing.
  await expect(page).toHaveURL(/\/sign-up\?next=/);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByLabel("Email").fill(`oauth-${Date.now()}@example.test`);
  await page.getByLabel("Password").fill(`pw-${Date.now()}-long-enough`);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/oauth\/authorize\?/);
}

const rawCall = (token: string) =>
  fetch(MCP, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

test("an MCP client connects by dynamic registration: consent narrows scopes, a third scope is refused, revoke ends it", async ({
  page,
}) => {
  const callback = await callbackServer();
  try {
    const provider = new MemoryOAuthProvider({ redirectUrl: callback.redirectUrl });
    const first = new StreamableHTTPClientTransport(MCP, { authProvider: provider });
    await expect(new Client({ name: "e2e", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl;
    if (!url) throw new Error("the SDK produced no authorization URL");
    await signUpThroughConsent(page, url);

    await expect(page.getByTestId("consent-client")).toHaveText("Test Assistant wants to use your account");
    await expect(page.getByTestId("consent-redirect-host")).toHaveText(new URL(callback.redirectUrl).host);
    // Every scope asked for starts checked; the member narrows to two.
    await expect(page.getByRole("checkbox", { name: "todos:read", exact: true })).toBeChecked();
    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByRole("checkbox", { name: "collections:read", exact: true }).check();
    await page.getByRole("checkbox", { name: "collections:write", exact: true }).check();
    await screenshot(page, "oauth-consent");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => callback.received.length).toBe(1);
    const answer = callback.received[0] ?? new URLSearchParams();
    expect(answer.get("iss")).toBe(ORIGIN);
    expect(answer.get("state")).toBe("state-123");
    await first.finishAuth(answer.get("code") ?? "");

    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(MCP, { authProvider: provider }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain("collections_create");
    expect(tools).not.toContain("todos_list");
    const made = await client.callTool({
      name: "collections_create",
      arguments: { name: "From the assistant", type: "music" },
    });
    expect(made.isError).toBeFalsy();
    await expect(client.callTool({ name: "todos_list", arguments: {} })).rejects.toThrow(/403/);

    // Connected apps lists it; revoking ends the next call with 401.
    await page.goto(`${ORIGIN}/settings/connected-apps`);
    const row = page.getByTestId("grant-row").filter({ hasText: "Test Assistant" });
    await expect(row).toContainText("collections:write");
    await expect(row).not.toContainText("todos:read");
    await screenshot(page, "settings-connected-apps");
    const token = provider.tokens()?.access_token ?? "";
    expect((await rawCall(token)).status).toBe(200);
    await row.getByRole("link", { name: /Revoke/ }).click();
    await page.getByTestId("revoke-confirm").getByRole("button", { name: "Yes, revoke it" }).click();
    await expect(page.getByTestId("grant-row")).toHaveCount(0);
    expect((await rawCall(token)).status).toBe(401);
    await client.close();
  } finally {
    await callback.close();
  }
});

test("an MCP client identified by its metadata document connects; Deny sends access_denied", async ({ page }) => {
  const tls = selfSignedCertificate(path.join(process.cwd(), ".data", "e2e-tls"));
  const callback = await callbackServer();
  let documentUrl = "";
  const documents = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    if (req.url !== "/assistant.json") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: "Document Assistant",
        redirect_uris: [callback.redirectUrl],
      }),
    );
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  documentUrl = `https://127.0.0.1:${(documents.address() as AddressInfo).port}/assistant.json`;
  try {
    const provider = new MemoryOAuthProvider({ redirectUrl: callback.redirectUrl, clientMetadataUrl: documentUrl });
    const first = new StreamableHTTPClientTransport(MCP, { authProvider: provider });
    await expect(new Client({ name: "e2e", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl;
    if (!url) throw new Error("the SDK produced no authorization URL");
    expect(url.searchParams.get("client_id")).toBe(documentUrl);
    await signUpThroughConsent(page, url);
    await expect(page.getByTestId("consent-client")).toHaveText("Document Assistant wants to use your account");

    // Deny first: the client hears access_denied, with iss and state.
    await page.getByRole("button", { name: "Deny" }).click();
    await expect.poll(() => callback.received.length).toBe(1);
    expect(callback.received[0]?.get("error")).toBe("access_denied");
    expect(callback.received[0]?.get("iss")).toBe(ORIGIN);

    // Then approve a fresh request for items only.
    await page.goto(url.href);
    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByRole("checkbox", { name: "items:read", exact: true }).check();
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => callback.received.length).toBe(2);
    await first.finishAuth(callback.received[1]?.get("code") ?? "");
    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(MCP, { authProvider: provider }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain("items_list");
    expect(tools).not.toContain("collections_create");
    const listed = await client.callTool({ name: "items_list", arguments: {} });
    expect(listed.isError).toBeFalsy();
    await client.close();
  } finally {
    await callback.close();
    await new Promise((resolve) => documents.close(resolve));
  }
});
