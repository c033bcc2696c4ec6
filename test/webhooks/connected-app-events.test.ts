import { describe, expect, it } from "vitest";
import { deleteAccount } from "@/lib/auth/account-deletion";
import { listGrants, revokeGrant } from "@/lib/auth/oauth/grants";
import { asService } from "@/lib/db";
import { eventKindByType, eventPayloadSchema } from "@/registry/events";
import { api } from "../support/api";
import { PULLING_TEST_TIMEOUT_MS, pullEvents } from "../support/event-log";
import { makeMember, type TestMember, tokenFor } from "../support/factories";
import {
  approveAndExchange as approve,
  MCP_RESOURCE as MCP,
  refreshTokens,
  registerClient,
} from "../support/oauth-grants";
import { oauthPost } from "../support/oauth-routes";
import { webhookScope } from "../support/webhook-scope";

process.env.WEBHOOKS_ALLOW_HTTP = "1";

const KINDS = ["connected_app.created", "connected_app.revoked"];

const { receiver, endpointFor, drain } = webhookScope();

async function receiverFor(member: TestMember, events: string[]) {
  const r = await receiver();
  await endpointFor(member, r.url, events);
  return r;
}

/** The member's grant events in the pull log (waits for transactions still running on the server pass). */
const pulled = async (token: string, count: number) =>
  (await pullEvents(api, token, { types: KINDS.join(","), limit: 200, count })).entries as any[];

describe("connected app events", { timeout: PULLING_TEST_TIMEOUT_MS }, () => {
  it("approving and ending grants is delivered to the member's endpoint and logged, with the reason, no secret, and to nobody else", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const ra = await receiverFor(ada, KINDS);
    const rb = await receiverFor(bob, ["*"]);
    const clientId = await registerClient();
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "c", type: "music" } });

    // Revoked by the member (the Connected apps page calls revokeGrant with the member's id).
    const byMember = await approve(ada.id, clientId, ["collections:read", "profile:read"], [collection.body.id]);
    // A used access token stamps the grant's last use: an update that is not an event.
    await asService((tx) =>
      tx.query("update app_private.oauth_grants set last_used_at = now() where id = $1", [byMember.grantId]),
    );
    expect(await revokeGrant(byMember.grantId, bob.id)).toBe(false);
    expect(await revokeGrant(byMember.grantId, ada.id)).toBe(true);
    // Revoked by refresh-token reuse: the rotated token presented again ends the family.
    const reused = await approve(ada.id, clientId, ["collections:read"]);
    expect((await refreshTokens(clientId, reused.refresh)).status).toBe(200);
    expect((await refreshTokens(clientId, reused.refresh)).body.error).toBe("invalid_grant");
    // Revoked by the app (RFC 7009 on its refresh token).
    const byClient = await approve(ada.id, clientId, ["todos:read"]);
    expect((await oauthPost("/oauth/revoke", { client_id: clientId, token: byClient.refresh })).status).toBe(200);
    await drain();

    const received = ra.received.map((one) => one.json);
    const secrets = [byMember, reused, byClient].flatMap((grant) => [grant.access, grant.refresh]);
    for (const one of ra.received) {
      for (const secret of secrets) expect(one.body).not.toContain(secret);
      expect(one.body).not.toMatch(/hash|redirect_uri|member_id/);
      const kind = eventKindByType.get(one.json.type);
      const parsed = eventPayloadSchema(one.json.type, (kind?.data as any).strict())
        .strict()
        .safeParse(one.json);
      expect(parsed.success, `${one.json.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    const of = (type: string, grantId: string) =>
      received.filter((event) => event.type === type && event.data.id === grantId);
    for (const grant of [byMember, reused, byClient]) {
      expect(of("connected_app.created", grant.grantId)).toHaveLength(1);
      expect(of("connected_app.revoked", grant.grantId)).toHaveLength(1);
    }
    expect(of("connected_app.created", byMember.grantId)[0]).toMatchObject({
      sequence: 1,
      data: {
        client_id: clientId,
        client_name: "Event Assistant",
        resource: MCP,
        scopes: ["collections:read", "profile:read"],
        limits: { collections: [collection.body.id] },
      },
    });
    expect(of("connected_app.revoked", byMember.grantId)[0]).toMatchObject({
      sequence: 2,
      data: { revoked_reason: "member", client_name: "Event Assistant" },
    });
    expect(of("connected_app.revoked", reused.grantId)[0]?.data.revoked_reason).toBe("refresh_token_reuse");
    expect(of("connected_app.revoked", byClient.grantId)[0]?.data.revoked_reason).toBe("client");
    expect(received).toHaveLength(6);

    // The pull log answers the same events, ids and payloads.
    const logged = await pulled(ada.token, 6);
    expect(logged.map((event) => event.id).sort()).toEqual(received.map((event) => event.id).sort());
    expect(logged.find((event) => event.id === received[0].id)).toEqual(received[0]);
    // They need profile:read; a token without it is told so.
    const noProfile = await tokenFor(ada.id, ["collections:read"]);
    const refused = await api("GET", "/events?types=connected_app.created", { token: noProfile });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="profile:read"');
    const defaults = await api("GET", "/events?limit=200", { token: noProfile });
    expect(defaults.body.data.filter((event: any) => KINDS.includes(event.type))).toEqual([]);

    // Another member never sees them, by webhook or by log.
    expect(rb.received.filter((one) => KINDS.includes(one.json.type))).toEqual([]);
    expect(await pulled(bob.token, 0)).toEqual([]);
  });

  it("account deletion with a subscribed endpoint and a live grant still deletes everything", async () => {
    const ada = await makeMember();
    await receiverFor(ada, KINDS);
    await approve(ada.id, await registerClient(), ["collections:read"]);
    expect(await listGrants(ada.id)).toHaveLength(1);
    expect(await deleteAccount(ada.id)).toBe(true);
    expect(await listGrants(ada.id)).toHaveLength(0);
  });
});
