import type { Env } from "../config/env.ts";
import type { SessionInfo } from "../auth/sessions.ts";
import { supabaseAuthConfig } from "../auth/supabase-config.ts";
import type { AccountResult } from "./accounts.ts";
import { builtinAuth } from "./builtin-auth.ts";
import { supabaseAuth } from "./supabase-auth.ts";

export interface CookieOptions {
  httpOnly?: boolean;
  sameSite?: "lax" | "strict" | "none" | boolean;
  secure?: boolean;
  path?: string;
  expires?: Date;
  maxAge?: number;
  domain?: string;
}

/** The request's cookies as Next's cookies() exposes them; tests pass a plain jar. */
export interface CookieJar {
  getAll(): { name: string; value: string }[];
  set(name: string, value: string, options?: CookieOptions): void;
}

export interface AuthRequest {
  cookies: CookieJar;
  headers: Headers;
}

/** The session a request runs in: ours, in both modes. */
export type SessionRef = Pick<SessionInfo, "sessionId" | "memberId">;

export type PasswordChange = { ok: true } | { ok: false; error: string };

/**
 * How a browser signs in to the settings pages. Built-in: email + password kept in auth.users,
 * a cookie session of our own. Supabase: the project's Auth (GoTrue) through @supabase/ssr, its
 * JWT verified here. Either way the result is a session of ours, and a session caller acting as
 * the auth.users id under RLS.
 */
export interface AuthBackend {
  readonly mode: "builtin" | "supabase";
  signUp(request: AuthRequest, email: string, password: string): Promise<AccountResult>;
  signIn(request: AuthRequest, email: string, password: string): Promise<AccountResult>;
  signOut(request: AuthRequest): Promise<void>;
  currentSession(request: AuthRequest): Promise<SessionInfo | null>;
  changePassword(request: AuthRequest, session: SessionRef, current: string, next: string): Promise<PasswordChange>;
  /** Whether this is the account's password (re-entered before an irreversible step); no session is made. */
  checkPassword(member: { id: string; email: string }, password: string): Promise<boolean>;
}

/** Supabase mode when the project's URL and publishable (or anon) key are set; built-in otherwise. */
export function authBackend(env?: Env): AuthBackend {
  const config = supabaseAuthConfig(env);
  return config ? supabaseAuth(config) : builtinAuth;
}
