import { describe, expect, it } from "vitest";
import { COMMANDS } from "@/lib/cli/commands";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { expectStoreRefusal } from "../support/store";

describe("profile", () => {
  it("starts free, with attachment consent following", async () => {
    const ada = await makeMember();
    const profile = await api("GET", "/profile", { token: ada.token });
    expect(profile.body).toMatchObject({
      id: ada.id,
      handle: ada.handle,
      plan: "free",
      attachment_consent: "following",
    });
  });

  it("keeps handles unique regardless of case (409 with the store's reason)", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const taken = await api("PATCH", "/profile", { token: bob.token, body: { handle: ada.handle.toUpperCase() } });
    expectStoreRefusal(taken, { status: 409, code: "conflict", sqlstate: "23505", message: /handle/ });
    const renamed = await api("PATCH", "/profile", { token: bob.token, body: { handle: `${bob.handle}_x` } });
    expect(renamed.body.handle).toBe(`${bob.handle}_x`);
  });

  it("refuses writing plan (422 read_only); only the operator CLI changes it", async () => {
    const ada = await makeMember();
    const response = await api("PATCH", "/profile", { token: ada.token, body: { plan: "pro" } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ pointer: "/plan", code: "read_only" });
    expect((await api("GET", "/profile", { token: ada.token })).body.plan).toBe("free");
    const setPlan = COMMANDS["member plan"];
    if (!setPlan) throw new Error("no member plan command");
    expect(JSON.parse(await setPlan({ email: ada.email, plan: "pro" }))).toMatchObject({ plan: "pro" });
    expect((await api("GET", "/profile", { token: ada.token })).body.plan).toBe("pro");
  });

  it("refuses an unknown time zone with the store's reason (422)", async () => {
    const ada = await makeMember();
    const response = await api("PATCH", "/profile", { token: ada.token, body: { timezone: "Mars/Olympus_Mons" } });
    expectStoreRefusal(response, {
      status: 422,
      code: "invalid_request",
      sqlstate: "22023",
      message: /unknown timezone/,
    });
  });
});
