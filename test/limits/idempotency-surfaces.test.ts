import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as invokeRoute } from "@/app/api/agent/invoke/route";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

async function invoke(token: string, key: string, tool: string, input: unknown) {
  const response = await invokeRoute(
    new Request("http://localhost/api/agent/invoke", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ tool, input }),
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The key lives in the shared pipeline, so every surface and every create honours it alike. */
describe("Idempotency-Key beyond plain REST creates", () => {
  it("replays on tool invoke, and across surfaces for the same tool and input", async () => {
    const ada = await makeMember();
    const key = randomUUID();
    const first = await invoke(ada.token, key, "todos_create", { title: "From the assistant" });
    expect(first.status).toBe(201);
    expect(first.body.ok).toBe(true);
    const again = await invoke(ada.token, key, "todos_create", { title: "From the assistant" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.result).toEqual(first.body.result);
    const viaRest = await api("POST", "/todos", {
      token: ada.token,
      body: { title: "From the assistant" },
      headers: { "idempotency-key": key },
    });
    expect(viaRest.headers.get("idempotent-replayed")).toBe("true");
    expect(viaRest.body.id).toBe(first.body.result.id);
    const mismatch = await invoke(ada.token, key, "todos_create", { title: "Something else" });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({ ok: false, error: { code: "idempotency_mismatch" } });
    expect((await api("GET", "/todos", { token: ada.token })).body.data).toHaveLength(1);
  });

  it("replays a streak check-in", async () => {
    const ada = await makeMember();
    const streak = await api("POST", "/streaks", { token: ada.token, body: { name: "Run", timezone: "UTC" } });
    expect(streak.status).toBe(201);
    const key = randomUUID();
    const path = `/streaks/${streak.body.id}/check-in`;
    const first = await api("POST", path, { token: ada.token, headers: { "idempotency-key": key } });
    expect([200, 201]).toContain(first.status);
    const again = await api("POST", path, { token: ada.token, headers: { "idempotency-key": key } });
    expect(again.status).toBe(first.status);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });
});
