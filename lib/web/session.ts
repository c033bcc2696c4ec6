import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { type SessionCaller, sessionCaller } from "../auth/caller.ts";
import { createSession, endSession, findSession, sweepExpiredSessions } from "../auth/sessions.ts";
import { asService } from "../db/index.ts";
import { isLocalHost } from "./csrf.ts";

export const SESSION_COOKIE = "pds_session";

export interface SignedInMember {
  /** The browser session this page runs in. */
  sessionId: string;
  id: string;
  email: string;
  handle: string;
  plan: "free" | "pro";
}

/** Sets the cookie: HttpOnly, SameSite=Lax, Secure except on plain-HTTP localhost. */
export async function startSession(memberId: string): Promise<void> {
  await sweepExpiredSessions(memberId);
  const { secret, expiresAt } = await createSession(memberId);
  const secure = !isLocalHost(await headers());
  (await cookies()).set(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    expires: expiresAt,
  });
}

export async function stopSession(): Promise<void> {
  const jar = await cookies();
  await endSession(jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
}

/** The member this browser is signed in as, or null; looked up once per render (layout and page share it). */
export const currentMember = cache(async (): Promise<SignedInMember | null> => {
  const session = await findSession((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) return null;
  const [row] = await asService((tx) =>
    tx.query<SignedInMember>(
      `select m.id, m.email::text as email, p.handle::text as handle, p.plan
       from app_private.members m join public.profiles p on p.id = m.id where m.id = $1`,
      [session.memberId],
    ),
  );
  return row ? { ...row, sessionId: session.sessionId } : null;
});

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
