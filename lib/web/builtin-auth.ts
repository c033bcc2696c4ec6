import { createSession, endSession, findSession, sweepExpiredSessions } from "../auth/sessions.ts";
import { asService } from "../db/index.ts";
import { clientAddress } from "../http/client-address.ts";
import { changePassword, memberHasPassword, signIn, signUp } from "./accounts.ts";
import type { AuthBackend, AuthRequest } from "./auth-context.ts";
import { isLocalHost } from "./csrf.ts";

export const SESSION_COOKIE = "pds_session";

const cookieValue = (request: AuthRequest) => request.cookies.getAll().find((c) => c.name === SESSION_COOKIE)?.value;

/** Sets the cookie: HttpOnly, SameSite=Lax, Secure except on plain-HTTP localhost. */
async function startSession(request: AuthRequest, memberId: string): Promise<void> {
  await sweepExpiredSessions(memberId);
  const { secret, expiresAt } = await createSession(memberId, request.headers.get("user-agent") ?? "");
  request.cookies.set(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: "lax",
    secure: !isLocalHost(request.headers),
    path: "/",
    expires: expiresAt,
  });
}

export const builtinAuth: AuthBackend = {
  mode: "builtin",
  async signUp(request, email, password) {
    const result = await signUp(email, password);
    if (result.ok) await startSession(request, result.memberId);
    return result;
  },
  async signIn(request, email, password) {
    const result = await signIn(email, password, clientAddress(request.headers));
    if (result.ok) await startSession(request, result.memberId);
    return result;
  },
  async signOut(request) {
    await endSession(cookieValue(request));
    request.cookies.set(SESSION_COOKIE, "", { path: "/", maxAge: 0 });
  },
  currentSession(request) {
    return findSession(cookieValue(request));
  },
  async changePassword(_request, session, current, next) {
    const result = await changePassword(session.memberId, current, next);
    // Whoever else knew the old password is signed out everywhere but here.
    if (result.ok) {
      await asService((tx) =>
        tx.query("delete from app_private.sessions where member_id = $1 and id <> $2", [
          session.memberId,
          session.sessionId,
        ]),
      );
    }
    return result;
  },
  checkPassword(member, password) {
    return memberHasPassword(member.id, password);
  },
};
