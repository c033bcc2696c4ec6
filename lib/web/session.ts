import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { type SessionCaller, sessionCaller } from "../auth/caller.ts";
import { memberById } from "../auth/members.ts";
import { asService } from "../db/index.ts";
import type { AccountResult } from "./accounts.ts";
import { type AuthRequest, authBackend, type PasswordChange } from "./auth-context.ts";

export { SESSION_COOKIE } from "./builtin-auth.ts";

export interface SignedInMember {
  /** The browser session this page runs in. */
  sessionId: string;
  id: string;
  email: string;
  handle: string;
  plan: "free" | "pro";
}

/** The request as the auth backends see it, from Next's cookies() and headers(). */
export async function nextAuthRequest(): Promise<AuthRequest> {
  const jar = await cookies();
  return {
    cookies: { getAll: () => jar.getAll(), set: (name, value, options) => jar.set(name, value, options) },
    headers: await headers(),
  };
}

export async function signUpBrowser(email: string, password: string): Promise<AccountResult> {
  return authBackend().signUp(await nextAuthRequest(), email, password);
}

export async function signInBrowser(email: string, password: string): Promise<AccountResult> {
  return authBackend().signIn(await nextAuthRequest(), email, password);
}

export async function stopSession(): Promise<void> {
  await authBackend().signOut(await nextAuthRequest());
}

export async function changeBrowserPassword(
  member: SignedInMember,
  current: string,
  next: string,
): Promise<PasswordChange> {
  const request = await nextAuthRequest();
  return authBackend().changePassword(request, { sessionId: member.sessionId, memberId: member.id }, current, next);
}

/** The member behind a request in either auth mode, or null. */
export async function memberForRequest(request: AuthRequest): Promise<SignedInMember | null> {
  const session = await authBackend().currentSession(request);
  if (!session) return null;
  const member = await asService((tx) => memberById(tx, session.memberId)).catch(() => null);
  if (!member) return null;
  return { sessionId: session.sessionId, id: member.id, email: member.email, handle: member.handle, plan: member.plan };
}

/** The member this browser is signed in as, or null; looked up once per render (layout and page share it). */
export const currentMember = cache(
  async (): Promise<SignedInMember | null> => memberForRequest(await nextAuthRequest()),
);

/** For pages and actions that need a member: sends anyone else to sign in. */
export async function requireMember(): Promise<SignedInMember> {
  const member = await currentMember();
  if (!member) redirect("/sign-in");
  return member;
}

/**
 * A signed-in browser acts with every scope, through the same pipeline as a token: RLS and the
 * store's rules apply unchanged.
 */
export function memberCaller(member: SignedInMember): SessionCaller {
  return sessionCaller(member.id, member.sessionId);
}
