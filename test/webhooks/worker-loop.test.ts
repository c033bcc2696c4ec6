import { describe, expect, it } from "vitest";
import { startWebhookWorker } from "@/lib/webhook-delivery/worker";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { startReceiver } from "../support/webhook-receiver";

process.env.WEBHOOKS_ALLOW_HTTP = "1";

async function endpoint(token: string, url: string): Promise<string> {
  const created = await api("POST", "/webhook-endpoints", { token, body: { url, events: ["todo.created"] } });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe("the delivery loop", () => {
  it("keeps delivering to other endpoints while one receiver does not answer", async () => {
    const [ada, bo] = [await makeMember(), await makeMember()];
    const slow = await startReceiver(() => 0);
    const fast = await startReceiver();
    const worker = startWebhookWorker({
      endpoints: [await endpoint(ada.token, slow.url), await endpoint(bo.token, fast.url)],
      pollMs: 20,
    });
    try {
      expect((await api("POST", "/todos", { token: ada.token, body: { title: "hangs" } })).status).toBe(201);
      await slow.waitFor(1);
      // More than one claim's worth (20), all while the first delivery is still waiting for its answer.
      for (let i = 0; i < 30; i++) {
        expect((await api("POST", "/todos", { token: bo.token, body: { title: `todo ${i}` } })).status).toBe(201);
      }
      const arrived = await fast.waitFor(30, 5_000);
      expect(new Set(arrived.map((r) => r.json.data.title)).size).toBe(30);
      expect(slow.received).toHaveLength(1);
    } finally {
      await slow.close();
      await fast.close();
      await worker.stop();
    }
  }, 30_000);
});
