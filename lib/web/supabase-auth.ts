import { createServerClient } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import { forgetAuthSession, type SessionInfo, touchAuthSession } from "../auth/sessions.ts";
import type { SupabaseAuthConfig } from "../auth/supabase-config.ts";
import { verifySupabaseJwt } from "../auth/supabase-jwt.ts";
import { BAD_CREDENTIALS, checkCredentials, checkNewPassword, MAX_PASSWORD, MIN_PASSWORD } from "./accounts.ts";
import type { AuthBackend, AuthRequest, CookieOptions } from "./auth-context.ts";

/** @supabase/ssr's server client over the request's cookies, as its Next App Router guide prescribes. */
export function supabaseServerClient(config: SupabaseAuthConfig, request: AuthRequest) {
  return createServerClient(config.url, config.publishableKey, {
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll(cookiesToSet) {
        try {
          for (const { name, value, options } of cookiesToSet) {
            request.cookies.set(name, value, options as CookieOptions);
          }
        } catch {
          // A Server Component cannot set cookies; the proxy refreshes the session on navigation.
        }
      },
    },
  });
}

/** Verifies the access token (never trusting the cookie's own user object) and records the session. */
async function sessionFromToken(
  config: SupabaseAuthConfig,
  request: AuthRequest,
  accessToken: string | undefined,
): Promise<SessionInfo | null> {
  if (!accessToken) return null;
  const claims = await verifySupabaseJwt(accessToken, config);
  if (!claims) return null;
  return touchAuthSession(claims.sub, claims.sessionId, claims.expiresAt, request.headers.get("user-agent") ?? "");
}

function authError(error: { code?: string; message: string; status?: number }): string {
  if (error.code === "invalid_credentials" || error.status === 400) return BAD_CREDENTIALS;
  if (error.code === "user_already_exists") return "An account with this email already exists. Sign in instead.";
  if (error.code === "weak_password") return `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`;
  if (error.status === 429) return "Too many attempts. Try again in a few minutes.";
  return `Supabase Auth refused: ${error.message}`;
}

export function supabaseAuth(config: SupabaseAuthConfig): AuthBackend {
  return {
    mode: "supabase",
    async signUp(request, email, password) {
      const invalid = checkCredentials(email, password);
      if (invalid) return { ok: false, error: invalid };
      const supabase = supabaseServerClient(config, request);
      const { data, error } = await supabase.auth.signUp({ email: email.trim(), password });
      if (error) return { ok: false, error: authError(error) };
      if (!data.session) {
        return { ok: false, error: "Check your email to confirm the account, then sign in." };
      }
      const session = await sessionFromToken(config, request, data.session.access_token);
      return session ? { ok: true, memberId: session.memberId } : { ok: false, error: BAD_CREDENTIALS };
    },
    async signIn(request, email, password) {
      const supabase = supabaseServerClient(config, request);
      const { data, error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
      if (error) return { ok: false, error: authError(error) };
      const session = await sessionFromToken(config, request, data.session?.access_token);
      return session ? { ok: true, memberId: session.memberId } : { ok: false, error: BAD_CREDENTIALS };
    },
    async signOut(request) {
      const supabase = supabaseServerClient(config, request);
      const { data } = await supabase.auth.getSession();
      const claims = data.session ? await verifySupabaseJwt(data.session.access_token, config) : null;
      if (claims) await forgetAuthSession(claims.sessionId);
      // Only this browser's session; the member's other devices stay signed in.
      await supabase.auth.signOut({ scope: "local" });
    },
    async currentSession(request) {
      // getSession refreshes an expired access token with the refresh token (writing the cookies
      // back); the token itself is then verified against the project's keys.
      const { data } = await supabaseServerClient(config, request).auth.getSession();
      return sessionFromToken(config, request, data.session?.access_token);
    },
    async changePassword(request, _session, current, next) {
      const invalid = checkNewPassword(next);
      if (invalid) return { ok: false, error: invalid };
      const supabase = supabaseServerClient(config, request);
      const { data } = await supabase.auth.getSession();
      const email = data.session ? (await supabase.auth.getUser()).data.user?.email : undefined;
      if (!email) return { ok: false, error: "Sign in again to change the password." };
      // GoTrue changes a password for any live session; asking for the current one keeps a
      // borrowed, still-open browser from taking the account over.
      if (!(await passwordSignsIn(config, email, current)))
        return { ok: false, error: "The current password is not right." };
      const { error } = await supabase.auth.updateUser({ password: next });
      if (error) return { ok: false, error: authError(error) };
      return { ok: true };
    },
    checkPassword(member, password) {
      return passwordSignsIn(config, member.email, password);
    },
  };
}

/** GoTrue checks the password: a sign-in on a throwaway client (no cookies), ended at once. */
async function passwordSignsIn(config: SupabaseAuthConfig, email: string, password: string): Promise<boolean> {
  const probe = createClient(config.url, config.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const check = await probe.auth.signInWithPassword({ email, password });
  if (check.error) return false;
  await probe.auth.signOut({ scope: "local" });
  return true;
}
