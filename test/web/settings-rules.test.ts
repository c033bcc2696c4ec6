import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { blockByHandle, listBlocks, unblock } from "@/lib/web/blocks";
import { sessionCaller } from "@/lib/auth/caller";
import { callAsSession } from "@/lib/web/session-call";
import { createTokenFromForm } from "@/lib/web/token-form";
import { listTokens, renameToken } from "@/lib/auth/tokens";
import { coverageLine, SCOPE_COVERAGE } from "@/registry/scope-coverage";
import { describeScope, SCOPES } from "@/registry/scopes";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
};

describe("settings pages' rules", () => {
  beforeAll(async () => {
    await getDb();
  });

  it("a block made by handle refuses a follow both ways until it is lifted", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    expect(await blockByHandle(ada.id, `@${bob.handle.toUpperCase()}`)).toEqual({ ok: true, handle: bob.handle });
    expect(await blockByHandle(ada.id, bob.handle)).toEqual({ ok: true, handle: bob.handle });
    expect((await listBlocks(ada.id)).map((b) => b.handle)).toEqual([bob.handle]);
    expect(await listBlocks(bob.id)).toEqual([]);

    const bobFollows = await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } });
    expect(bobFollows.status).toBe(403);
    expect(bobFollows.body.code).toBe("write_refused");
    const adaFollows = await api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } });
    expect(adaFollows.status).toBe(403);

    expect(await unblock(bob.id, ada.id)).toBe(false);
    expect(await unblock(ada.id, bob.id)).toBe(true);
    expect((await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } })).status).toBe(201);
  });

  it("answers an unknown handle, a bad handle and oneself in words", async () => {
    const ada = await makeMember();
    expect(await blockByHandle(ada.id, "no_such_member_here")).toMatchObject({
      ok: false,
      error: expect.stringContaining("No member"),
    });
    expect(await blockByHandle(ada.id, "a!")).toMatchObject({ ok: false });
    expect(await blockByHandle(ada.id, ada.handle)).toMatchObject({ ok: false, error: "You cannot block yourself." });
  });

  it("updates the profile through the API's own capability, with its refusals", async () => {
    const ada = await makeMember();
    const headers = new Headers();
    const caller = sessionCaller(ada.id, randomUUID());
    const saved = await callAsSession(
      caller,
      "profile_update",
      { display_name: "Ada", timezone: "Europe/Berlin" },
      headers,
    );
    expect(saved).toMatchObject({ ok: true, status: 200, body: { display_name: "Ada", timezone: "Europe/Berlin" } });
    expect((await api("GET", "/profile", { token: ada.token })).body.timezone).toBe("Europe/Berlin");

    const plan = await callAsSession(caller, "profile_update", { plan: "pro" }, headers);
    expect(plan).toMatchObject({
      ok: false,
      problem: { status: 422, errors: [{ pointer: "/plan", code: "read_only" }] },
    });
    const zone = await callAsSession(caller, "profile_update", { timezone: "Mars/Olympus_Mons" }, headers);
    expect(zone).toMatchObject({
      ok: false,
      problem: { status: 422, reason: { message: expect.stringContaining("unknown timezone") } },
    });
  });

  it("creates a token from the form with exactly the picked scopes and expiry", async () => {
    const ada = await makeMember();
    const made = await createTokenFromForm(
      ada.id,
      form([
        ["name", " laptop "],
        ["days", "7"],
        ["scopes", "todos:read"],
        ["scopes", "goals:read"],
      ]),
    );
    if (!made.ok) throw new Error(made.error);
    expect(made).toMatchObject({ name: "laptop", scopes: ["todos:read", "goals:read"] });
    expect((await api("GET", "/todos", { token: made.token })).status).toBe(200);
    expect((await api("GET", "/collections", { token: made.token })).status).toBe(403);

    const bad = (entries: [string, string][]) => createTokenFromForm(ada.id, form(entries));
    expect(
      await bad([
        ["name", "x"],
        ["days", "90"],
      ]),
    ).toMatchObject({ ok: false, error: "Pick at least one scope." });
    expect(
      await bad([
        ["name", "x"],
        ["days", "400"],
        ["scopes", "todos:read"],
      ]),
    ).toMatchObject({ ok: false });
    expect(
      await bad([
        ["name", ""],
        ["scopes", "todos:read"],
      ]),
    ).toMatchObject({ ok: false });
    expect(
      await bad([
        ["name", "x"],
        ["scopes", "admin:all"],
      ]),
    ).toMatchObject({ ok: false, error: "Unknown scope: admin:all." });
  });

  it("takes a custom expiry date up to 366 days ahead, refused beyond or in the past, and renames", async () => {
    const ada = await makeMember();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const custom = (date: string) =>
      createTokenFromForm(
        ada.id,
        form([
          ["name", "x"],
          ["days", "custom"],
          ["expires_on", date],
          ["scopes", "todos:read"],
        ]),
      );
    const made = await custom(day(200));
    if (!made.ok) throw new Error(made.error);
    expect(made.expiresAt.slice(0, 10)).toBe(day(200));
    expect(new Date(made.expiresAt).toISOString().slice(11, 19)).toBe("00:00:00");
    expect(await custom(day(367))).toMatchObject({ ok: false });
    expect(await custom(day(-1))).toMatchObject({ ok: false });
    expect(await custom("2027-02-30")).toMatchObject({ ok: false });

    const [record] = await listTokens(ada.id);
    const bob = await makeMember();
    expect(await renameToken(record?.id ?? "", bob.id, "stolen")).toBe(false);
    expect(await renameToken(record?.id ?? "", ada.id, "renamed")).toBe(true);
    expect((await listTokens(ada.id)).find((t) => t.id === record?.id)?.name).toBe("renamed");
  });

  it("describes every scope from the registry and lists what it covers", () => {
    for (const scope of SCOPES) {
      expect(describeScope(scope)).toMatch(/^(Read|Create, change and delete): .+\.$/);
      expect(SCOPE_COVERAGE.get(scope)?.tools.length).toBeGreaterThan(0);
    }
    expect(coverageLine("collections:read")).toContain("GET /collections");
    expect(coverageLine("items:read")).toContain("play_song");
    expect(coverageLine("profile:write")).toContain("POST /uploads");
  });
});
