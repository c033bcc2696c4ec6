import { afterAll, expect } from "vitest";
import { runWebhookDeliveries } from "@/lib/webhook-delivery/worker";
import { api } from "./api";
import type { TestMember } from "./factories";
import { startReceiver } from "./webhook-receiver";

/**
 * A test file's webhook receivers and endpoints: the receivers close after the file, and delivery
 * passes deliver only the endpoints this file made, not other files' (which share the database).
 */
export function webhookScope() {
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  const mine: string[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });
  return {
    mine,
    async receiver(answer?: Parameters<typeof startReceiver>[0]) {
      const r = await startReceiver(answer);
      receivers.push(r);
      return r;
    },
    async endpointFor(member: TestMember, url: string, events: string[] = ["*"]) {
      const response = await api("POST", "/webhook-endpoints", { token: member.token, body: { url, events } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      mine.push(response.body.id);
      return response.body as { id: string; secret: string };
    },
    /** Runs delivery passes until nothing is due (the in-process worker is not running in tests). */
    async drain() {
      for (let i = 0; i < 50; i++) if ((await runWebhookDeliveries({ endpoints: mine })) === 0) return;
    },
  };
}
