import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

const NOBODY = "00000000-0000-4000-8000-000000000000";

describe("how the store's refusals reach the client", () => {
  it("answers 422 with the store's reason for a reference to a member who does not exist", async () => {
    const member = await makeMember();
    for (const [path, body] of [
      ["/follows", { followee_id: NOBODY }],
      ["/messages", { recipient_id: NOBODY, body: "hello?" }],
    ] as const) {
      const response = await api("POST", path, { token: member.token, body });
      expect(response.status, path).toBe(422);
      expect(response.body).toMatchObject({ code: "invalid_request", reason: { sqlstate: "23503" } });
      expect(response.body.reason.message).toMatch(/^insert or update on table .* violates foreign key constraint/);
    }
  });

  it("answers 409 with the store's reason for a unique rule", async () => {
    const member = await makeMember();
    const other = await makeMember();
    expect((await api("POST", "/follows", { token: member.token, body: { followee_id: other.id } })).status).toBe(201);
    const again = await api("POST", "/follows", { token: member.token, body: { followee_id: other.id } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "conflict", reason: { sqlstate: "23505" } });
  });
});
