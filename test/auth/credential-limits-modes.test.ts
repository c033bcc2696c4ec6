import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { newAccessToken, secretHash } from "@/lib/auth/oauth/secrets";
import { authenticateToken } from "@/lib/auth/tokens";
import { oauthUrls } from "@/lib/http/oauth-urls";
import { getDb } from "@/lib/db";
import { asService } from "@/lib/db";
import { pendingDeletes, takeDelete } from "@/lib/domain/delete-confirmations";
import { runUpkeep } from "@/lib/upkeep/run";
import { UPKEEP_TASKS } from "@/lib/upkeep/tasks";
import { siteUrlFrom } from "@/lib/http/site-url";
import { isWrite } from "@/lib/pipeline/credential-limits";
import { capabilities } from "@/registry/capabilities";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { getTools, invoke } from "../surfaces/agent";
import { connectMcp } from "../surfaces/mcp-client";
import { collectionWithItem, limitedToken } from "./credential-limits-support";

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});
async function mcp(token: string): Promise<Client> {
  const client = await connectMcp(token);
  open.push(client);
  return client;
}
const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

describe("safety modes of a credential", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("keeps the limits through the token look-up and its cache", async () => {
    const ada = await makeMember();
    const token = await limitedToken(ada.id, { readOnly: true, tools: ["items_list"] });
    const first = await authenticateToken(token);
    const again = await authenticateToken(token);
    expect(first?.limits).toEqual({ readOnly: true, tools: ["items_list"] });
    expect(again?.limits).toEqual({ readOnly: true, tools: ["items_list"] });
    expect((await authenticateToken(ada.token))?.limits).toBeUndefined();
  });

  describe("read-only", () => {
    it("refuses every write with 403 read_only_credential on REST, invoke and MCP, and reads as before", async () => {
      const ada = await makeMember();
      const { collectionId, itemId } = await collectionWithItem(ada, "Kept");
      const token = await limitedToken(ada.id, { readOnly: true });
      const rest = await api("POST", "/collections", { token, body: { name: "New", type: "music" } });
      expect(rest.status).toBe(403);
      expect(rest.body).toMatchObject({ code: "read_only_credential", type: "/docs/errors#read_only_credential" });
      expect((await api("PATCH", `/items/${itemId}`, { token, body: { note: "x" } })).body.code).toBe(
        "read_only_credential",
      );
      expect((await api("DELETE", `/collections/${collectionId}`, { token })).body.code).toBe("read_only_credential");
      const viaInvoke = await invoke(token, { tool: "todos_create", input: { title: "x" } });
      expect(viaInvoke).toMatchObject({ status: 403, body: { ok: false, error: { code: "read_only_credential" } } });
      const client = await mcp(token);
      const viaMcp = await client.callTool({ name: "items_delete", arguments: { id: itemId } });
      expect(viaMcp.isError).toBe(true);
      expect(JSON.stringify(viaMcp.content)).toContain("read_only_credential");
      expect((await api("GET", `/items/${itemId}`, { token })).status).toBe(200);
    });

    it("lists only the read tools, in the catalog and over MCP", async () => {
      const ada = await makeMember();
      const token = await limitedToken(ada.id, { readOnly: true });
      const reads = capabilities.filter((c) => !isWrite(c)).map((c) => c.tool);
      expect(names((await getTools(token)).body.tools)).toEqual(reads);
      expect(names((await (await mcp(token)).listTools()).tools)).toEqual(reads);
      expect(reads).toContain("items_list");
      expect(reads).not.toContain("items_create");
      // Resolve is a POST that writes no member data: a read.
      expect(reads).toContain("resolve");
    });
  });

  describe("tool allowlist", () => {
    it("lets only the chosen tools run, on every surface, and lists only them", async () => {
      const ada = await makeMember();
      const token = await limitedToken(ada.id, { tools: ["collections_list", "items_get"] });
      expect(names((await getTools(token)).body.tools)).toEqual(["collections_list", "items_get"]);
      expect(names((await (await mcp(token)).listTools()).tools)).toEqual(["collections_list", "items_get"]);
      expect((await api("GET", "/collections", { token })).status).toBe(200);
      const refused = await invoke(token, { tool: "collections_create", input: { name: "x", type: "music" } });
      expect(refused).toMatchObject({ status: 403, body: { ok: false, error: { code: "tool_not_allowed" } } });
      const rest = await api("GET", "/todos", { token });
      expect(rest.status).toBe(403);
      expect(rest.body.code).toBe("tool_not_allowed");
      const viaMcp = await (await mcp(token)).callTool({ name: "todos_list", arguments: {} });
      expect(viaMcp.isError).toBe(true);
      expect(JSON.stringify(viaMcp.content)).toContain("tool_not_allowed");
    });

    it("still needs the scopes: the allowlist narrows, never widens", async () => {
      const ada = await makeMember();
      const token = await limitedToken(ada.id, { tools: ["todos_list", "items_list"] }, ["items:read"]);
      expect(names((await getTools(token)).body.tools)).toEqual(["items_list"]);
      expect((await api("GET", "/todos", { token })).body.code).toBe("insufficient_scope");
    });
  });

  describe("confirm destructive", () => {
    it("holds a delete through invoke or MCP as a confirm_delete directive, and deletes nothing", async () => {
      const ada = await makeMember();
      const { collectionId, itemId } = await collectionWithItem(ada, "Careful");
      const token = await limitedToken(ada.id, { confirmDestructive: true });
      const held = await invoke(token, { tool: "items_delete", input: { id: itemId } });
      expect(held.status).toBe(202);
      expect(held.body).toMatchObject({
        ok: true,
        directive: { type: "confirm_delete", tool: "items_delete", resource: "item", id: itemId },
      });
      expect(held.body.directive.url).toBe(
        `${siteUrlFrom()}/settings/confirmations?id=${held.body.directive.confirmation_id}`,
      );
      expect((await api("GET", `/items/${itemId}`, { token: ada.token })).status).toBe(200);

      const client = await mcp(token);
      const { tools } = await client.listTools();
      const described = tools.find((tool) => tool.name === "collections_delete");
      expect(described?.outputSchema?.properties).toHaveProperty("confirmation_id");
      const viaMcp = await client.callTool({ name: "collections_delete", arguments: { id: collectionId } });
      expect(viaMcp.isError).toBeFalsy();
      expect(viaMcp.structuredContent).toMatchObject({
        type: "confirm_delete",
        resource: "collection",
        id: collectionId,
      });
      expect((await api("GET", `/collections/${collectionId}`, { token: ada.token })).status).toBe(200);

      const pending = await pendingDeletes(ada.id);
      expect(pending.map((p) => [p.tool, p.target_id])).toEqual([
        ["collections_delete", collectionId],
        ["items_delete", itemId],
      ]);
      expect(pending[0]).toMatchObject({
        credential: "limited",
        resource: "collection",
        target: { label: "Careful", context: "with its one item", record: { name: "Careful" } },
      });
      expect(pending[1]?.target).toMatchObject({ context: "in Careful", record: { id: itemId } });
      expect(pending[1]?.target.label).toMatch(/^Entry /);
    });

    it("answers a REST delete 403 confirmation_required, naming the page, and deletes nothing", async () => {
      const ada = await makeMember();
      const { itemId } = await collectionWithItem(ada, "Careful");
      const token = await limitedToken(ada.id, { confirmDestructive: true });
      const rest = await api("DELETE", `/items/${itemId}`, { token });
      expect(rest.status).toBe(403);
      expect(rest.body.code).toBe("confirmation_required");
      expect(rest.body.detail).toMatch(/\/settings\/confirmations\?id=[0-9a-f-]{36}/);
      expect((await api("GET", `/items/${itemId}`, { token: ada.token })).status).toBe(200);
      expect((await pendingDeletes(ada.id)).map((p) => p.target_id)).toEqual([itemId]);
    });

    it("names an OAuth app's held delete by the app, as Connected apps does", async () => {
      const ada = await makeMember();
      const { itemId } = await collectionWithItem(ada, "Careful");
      const token = newAccessToken();
      await asService(async (tx) => {
        const [grant] = await tx.query<{ id: string }>(
          `insert into app_private.oauth_grants (member_id, client_id, client_name, redirect_uri, resource, scopes, limits)
           values ($1, 'https://app.example/client.json', 'Careful App', 'https://app.example/cb', $2, $3, $4) returning id`,
          [ada.id, oauthUrls().resource("api"), ["items:write"], JSON.stringify({ confirmDestructive: true })],
        );
        await tx.query(
          `insert into app_private.oauth_tokens (grant_id, kind, token_hash, expires_at)
           values ($1, 'access', $2, now() + interval '1 hour')`,
          [grant?.id, secretHash(token)],
        );
      });
      const rest = await api("DELETE", `/items/${itemId}`, { token });
      expect(rest.body.code).toBe("confirmation_required");
      expect((await pendingDeletes(ada.id)).map((p) => p.credential)).toEqual(["Careful App"]);
    });

    it("answers a delete of a row it cannot delete as the delete would (404), holding nothing", async () => {
      const ada = await makeMember();
      const bob = await makeMember();
      const bobs = await collectionWithItem(bob, "Bob's", "public");
      const token = await limitedToken(ada.id, { confirmDestructive: true });
      const missing = await invoke(token, {
        tool: "items_delete",
        input: { id: "00000000-0000-4000-8000-000000000000" },
      });
      expect(missing.status).toBe(404);
      const notOwner = await invoke(token, { tool: "collections_delete", input: { id: bobs.collectionId } });
      expect(notOwner).toMatchObject({
        status: 403,
        body: { error: { code: "write_refused", reason: { code: "not_owner" } } },
      });
      expect(await pendingDeletes(ada.id)).toEqual([]);
      expect((await api("GET", `/collections/${bobs.collectionId}`, { token: bob.token })).status).toBe(200);
    });

    it("lets a held delete lapse: the page no longer offers it, and upkeep removes it", async () => {
      const ada = await makeMember();
      const { collectionId, itemId } = await collectionWithItem(ada, "Lapsing");
      const token = await limitedToken(ada.id, { confirmDestructive: true });
      const old = (await invoke(token, { tool: "items_delete", input: { id: itemId } })).body.directive;
      await invoke(token, { tool: "collections_delete", input: { id: collectionId } });
      await asService((tx) =>
        tx.query("update app_private.delete_confirmations set expires_at = now() - interval '1 second' where id = $1", [
          old.confirmation_id,
        ]),
      );
      await runUpkeep(UPKEEP_TASKS.filter((task) => task.name === "lapsed_delete_confirmations"));
      const left = await asService((tx) =>
        tx.query<{ id: string }>("select id from app_private.delete_confirmations where member_id = $1", [ada.id]),
      );
      expect(left.map((row) => row.id)).not.toContain(old.confirmation_id);
      expect(left).toHaveLength(1);
      expect(await takeDelete(old.confirmation_id, ada.id)).toBeNull();
      expect((await pendingDeletes(ada.id)).map((p) => p.tool)).toEqual(["collections_delete"]);
      expect((await api("GET", `/items/${itemId}`, { token: ada.token })).status).toBe(200);
    });

    it("describes delete tools as answering the directive, and leaves other tools as they were", async () => {
      const ada = await makeMember();
      const token = await limitedToken(ada.id, { confirmDestructive: true });
      const tools = (await getTools(token)).body.tools as { name: string; kind: string; description: string }[];
      const plain = (await getTools(ada.token)).body.tools as { name: string; kind: string }[];
      expect(names(tools)).toEqual(names(plain));
      const itemsDelete = tools.find((tool) => tool.name === "items_delete");
      expect(itemsDelete?.kind).toBe("directive");
      expect(itemsDelete?.description).toContain("confirm_delete");
      expect(tools.find((tool) => tool.name === "items_update")?.kind).toBe("server");
    });
  });

  it("a token without limits is unchanged: full catalog, deletes run at once", async () => {
    const ada = await makeMember();
    const { itemId } = await collectionWithItem(ada, "Plain");
    expect(names((await getTools(ada.token)).body.tools)).toEqual(capabilities.map((c) => c.tool));
    expect(await invoke(ada.token, { tool: "items_delete", input: { id: itemId } })).toMatchObject({
      status: 200,
      body: { ok: true, result: null },
    });
  });
});
