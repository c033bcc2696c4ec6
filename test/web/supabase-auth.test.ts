import { randomUUID } from "node:crypto";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSessions, endSessionById } from "@/lib/auth/sessions";
import { verifySupabaseJwt } from "@/lib/auth/supabase-jwt";
import { asService, getDb } from "@/lib/db";
import { supabaseAuthConfig } from "@/lib/auth/supabase-config";
import { deleteAccountWithPassword } from "@/lib/web/account-delete";
import { authBackend } from "@/lib/web/auth-context";
import { supabaseServerClient } from "@/lib/web/supabase-auth";
import { memberCaller, memberForRequest } from "@/lib/web/session";
import { callAsSession } from "@/lib/web/session-call";
import { createTokenFromForm } from "@/lib/web/token-form";
import { api } from "../support/api";
import { TestBrowser } from "../support/cookie-jar";
import { type FakeGoTrue, startFakeGoTrue } from "../support/fake-gotrue/server";

const VARS = [
  "NEXT_PUBLIC_SUPABASE_URL",
  "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY",
  "SUPABASE_SECRET_KEY",
  "SUPABASE_JWT_SECRET",
];
const email = () => `sb-${randomUUID()}@example.test`;
const authCookie = (browser: TestBrowser) => [...browser.jar.keys()].find((name) => name.startsWith("sb-"));

describe("Supabase mode: @supabase/ssr against a local Supabase Auth", () => {
  let gotrue: FakeGoTrue;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    await getDb();
    gotrue = await startFakeGoTrue();
    for (const name of VARS) saved[name] = process.env[name];
    process.env.NEXT_PUBLIC_SUPABASE_URL = gotrue.url;
    process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY = gotrue.publishableKey;
    process.env.SUPABASE_SECRET_KEY = gotrue.secretKey;
    process.env.SUPABASE_JWT_SECRET = "legacy-secret-legacy-secret-legacy-secret!";
  });

  afterAll(async () => {
    for (const name of VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await gotrue?.close();
  });

  it("signs up through Supabase Auth; the settings session and a token both run as the JWT's sub", async () => {
    const backend = authBackend();
    expect(backend.mode).toBe("supabase");
    const browser = new TestBrowser("Laptop");
    const address = email();
    const signedUp = await backend.signUp(browser.request(), address, "correct horse battery");
    expect(signedUp.ok).toBe(true);
    const cookie = authCookie(browser);
    expect(cookie).toBeDefined();

    const member = await memberForRequest(browser.request());
    expect(member?.email).toBe(address);
    const config = supabaseAuthConfig();
    if (!config) throw new Error("not in Supabase mode");
    const { data } = await supabaseServerClient(config, browser.request()).auth.getSession();
    const sub = decodeJwt(data.session?.access_token ?? "").sub;
    expect(sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(member?.id).toBe(sub);
    if (!member) return;

    // The settings page: the session caller reads the profile under RLS as auth.uid() = sub.
    const profile = await callAsSession(memberCaller(member), "profile_get", {}, new Headers());
    expect(profile).toMatchObject({ ok: true, status: 200, body: { id: sub } });

    // Makes a token there; the token's requests run as the same member.
    const form = new FormData();
    form.set("name", "laptop");
    form.set("days", "30");
    form.append("scopes", "profile:read");
    form.append("scopes", "collections:write");
    const made = await createTokenFromForm(member.id, form);
    if (!made.ok) throw new Error(made.error);
    expect((await api("GET", "/profile", { token: made.token })).body).toMatchObject({ id: sub });
    const created = await api("POST", "/collections", {
      token: made.token,
      body: { name: "From a token", type: "music" },
    });
    expect(created.status).toBe(201);
    const [row] = await asService((tx) =>
      tx.query<{ owner_id: string }>("select owner_id from public.collections where id = $1", [created.body.id]),
    );
    expect(row?.owner_id).toBe(sub);
  });

  it("signs in with the product's account, refreshes an expired access token, lists and ends sessions", async () => {
    const backend = authBackend();
    const address = email();
    await backend.signUp(new TestBrowser("First").request(), address, "correct horse battery");
    const phone = new TestBrowser("Phone");
    expect(await backend.signIn(phone.request(), address, "wrong password!!")).toMatchObject({ ok: false });
    expect((await backend.signIn(phone.request(), address, "correct horse battery")).ok).toBe(true);
    const laptop = new TestBrowser("Laptop");
    gotrue.accessTokenSeconds = 5; // inside supabase-js's expiry margin: the next read refreshes
    expect((await backend.signIn(laptop.request(), address, "correct horse battery")).ok).toBe(true);
    gotrue.accessTokenSeconds = 3600;
    const before = laptop.jar.get(authCookie(laptop) ?? "");
    const me = await memberForRequest(laptop.request());
    expect(me?.email).toBe(address);
    expect(laptop.jar.get(authCookie(laptop) ?? "")).not.toBe(before); // refreshed, cookie rewritten
    expect((await memberForRequest(laptop.request()))?.sessionId).toBe(me?.sessionId); // same GoTrue session

    const sessions = await listSessions(me?.id ?? "");
    expect(sessions.map((s) => s.user_agent).sort()).toEqual(["First", "Laptop", "Phone"]);
    const phoneRow = sessions.find((s) => s.user_agent === "Phone");
    expect(await endSessionById(me?.id ?? "", phoneRow?.id ?? "")).toBe(true);
    // Its JWT still verifies, but this service refuses the ended session.
    expect(await memberForRequest(phone.request())).toBeNull();

    await backend.signOut(laptop.request());
    expect(authCookie(laptop)).toBeUndefined();
    expect(await memberForRequest(laptop.request())).toBeNull();
  });

  it("changes the password through Supabase Auth after checking the current one", async () => {
    const backend = authBackend();
    const address = email();
    const browser = new TestBrowser();
    await backend.signUp(browser.request(), address, "first password!");
    const session = await backend.currentSession(browser.request());
    if (!session) throw new Error("not signed in");
    const live = gotrue.liveSessions().length;
    expect(await backend.changePassword(browser.request(), session, "not it at all", "second password!")).toEqual({
      ok: false,
      error: "The current password is not right.",
    });
    expect(await backend.changePassword(browser.request(), session, "first password!", "second password!")).toEqual({
      ok: true,
    });
    expect(gotrue.liveSessions().length).toBe(live); // the check's own session was ended
    expect((await backend.signIn(new TestBrowser().request(), address, "first password!")).ok).toBe(false);
    expect((await backend.signIn(new TestBrowser().request(), address, "second password!")).ok).toBe(true);
  });

  it("verifies ES256 tokens against the JWKS and legacy HS256 ones with SUPABASE_JWT_SECRET, nothing else", async () => {
    const config = {
      url: gotrue.url,
      publishableKey: gotrue.publishableKey,
      jwtSecret: process.env.SUPABASE_JWT_SECRET,
    };
    const sub = randomUUID();
    const claims = { sub, role: "authenticated", session_id: randomUUID() };
    expect(await verifySupabaseJwt(await gotrue.sign(claims), config)).toMatchObject({ sub });
    expect(await verifySupabaseJwt(await gotrue.sign({ ...claims, role: "anon" }), config)).toBeNull();
    expect(await verifySupabaseJwt(await gotrue.sign(claims, -10), config)).toBeNull();
    const hs = (secret: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(`${gotrue.url}/auth/v1`)
        .setAudience("authenticated")
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode(secret));
    expect(await verifySupabaseJwt(await hs(config.jwtSecret ?? ""), config)).toMatchObject({ sub });
    expect(await verifySupabaseJwt(await hs("another secret of enough length!!"), config)).toBeNull();
    expect(await verifySupabaseJwt(await hs(config.jwtSecret ?? ""), { ...config, jwtSecret: undefined })).toBeNull();
  });

  it("deletes the account (password checked by Supabase Auth) through the admin API; every row goes with it", async () => {
    const browser = new TestBrowser();
    await authBackend().signUp(browser.request(), email(), "correct horse battery");
    const member = await memberForRequest(browser.request());
    if (!member) throw new Error("not signed in");
    const wrong = await deleteAccountWithPassword(member.id, "not my password", "198.51.100.9");
    expect(wrong.ok).toBe(false);
    expect(await memberForRequest(browser.request())).not.toBeNull();
    expect(await deleteAccountWithPassword(member.id, "correct horse battery", "198.51.100.9")).toEqual({ ok: true });
    const left = await asService((tx) =>
      tx.query<{ n: number }>(
        `select ((select count(*) from auth.users where id = $1) + (select count(*) from public.profiles where id = $1)
               + (select count(*) from app_private.sessions where member_id = $1))::int as n`,
        [member.id],
      ),
    );
    expect(left).toEqual([{ n: 0 }]);
    expect(await memberForRequest(browser.request())).toBeNull();
  });
});
