import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { makeMember, type TestMember } from "../support/factories";

const patch = (owner: TestMember, id: string, body: Record<string, unknown>) =>
  api("PATCH", `/goals/${id}`, { token: owner.token, body });

describe("goals", () => {
  it("becomes achieved when current_value reaches target_value, and stays achieved below it", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/goals", {
      token: ada.token,
      body: { title: "Read", target_value: 10, current_value: 5 },
    });
    expect(created.body).toMatchObject({ status: "active", current_value: 5, target_value: 10 });
    const id = created.body.id;
    expect((await patch(ada, id, { current_value: 10 })).body.status).toBe("achieved");
    expect((await patch(ada, id, { current_value: 3 })).body).toMatchObject({ status: "achieved", current_value: 3 });
    expect((await patch(ada, id, { status: "active" })).body.status).toBe("active");
    expect((await patch(ada, id, { target_value: 3 })).body.status).toBe("achieved");
  });

  it("is achieved at once when created at or above its target", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/goals", {
      token: ada.token,
      body: { title: "Done already", target_value: 2, current_value: 2.5 },
    });
    expect(created.body.status).toBe("achieved");
  });

  it("never moves an abandoned goal", async () => {
    const ada = await makeMember();
    const created = await api("POST", "/goals", {
      token: ada.token,
      body: { title: "Dropped", target_value: 5, status: "abandoned" },
    });
    expect((await patch(ada, created.body.id, { current_value: 9 })).body.status).toBe("abandoned");
  });

  it("refuses negative values and unknown statuses (422)", async () => {
    const ada = await makeMember();
    for (const body of [
      { title: "x", target_value: -1 },
      { title: "x", target_value: 1, current_value: -0.5 },
      { title: "x", target_value: 1, status: "paused" },
    ]) {
      const response = await api("POST", "/goals", { token: ada.token, body });
      expect(response.status).toBe(422);
    }
  });
});
