import { createHash, randomBytes } from "node:crypto";
import { asService } from "../db/index.ts";

/** How long a browser stays signed in without signing in again. */
export const SESSION_DAYS = 30;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SessionInfo {
  sessionId: string;
  memberId: string;
  expiresAt: Date;
}

function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret).digest();
}

/** Starts a session; the secret goes into the cookie and nowhere else. */
export async function createSession(memberId: string): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString("base64url");
  const [row] = await asService((tx) =>
    tx.query<{ expires_at: string }>(
      `insert into app_private.sessions (member_id, secret_hash, expires_at)
       values ($1, $2, now() + make_interval(days => $3)) returning to_jsonb(expires_at) #>> '{}' as expires_at`,
      [memberId, hashSecret(secret), SESSION_DAYS],
    ),
  );
  if (!row) throw new Error("session insert returned nothing");
  return { secret, expiresAt: new Date(row.expires_at) };
}

/**
 * The live session a cookie secret stands for, or null. last_seen_at is stamped at most once an
 * hour and skips a locked row, so the bookkeeping never slows or fails a page.
 */
export async function findSession(secret: string | undefined): Promise<SessionInfo | null> {
  if (!secret || !SECRET_PATTERN.test(secret)) return null;
  const [row] = await asService((tx) =>
    tx.query<{ id: string; member_id: string; expires_at: string }>(
      `with live as (
         select id, member_id, expires_at, last_seen_at from app_private.sessions
         where secret_hash = $1 and expires_at > now()
       ), stamp as (
         update app_private.sessions s set last_seen_at = now()
         where s.id = (select l.id from live l where l.last_seen_at < now() - interval '1 hour')
         and s.id in (select a.id from app_private.sessions a where a.id = s.id for update skip locked)
         returning s.id
       )
       select id, member_id, to_jsonb(expires_at) #>> '{}' as expires_at from live`,
      [hashSecret(secret)],
    ),
  );
  return row ? { sessionId: row.id, memberId: row.member_id, expiresAt: new Date(row.expires_at) } : null;
}

/** Signing out deletes the row, so the cookie is worthless even if a copy survives. */
export async function endSession(secret: string | undefined): Promise<void> {
  if (!secret || !SECRET_PATTERN.test(secret)) return;
  await asService((tx) => tx.query("delete from app_private.sessions where secret_hash = $1", [hashSecret(secret)]));
}

/** Expired rows are useless; sign-in sweeps a few so the table does not grow without bound. */
export async function sweepExpiredSessions(memberId: string): Promise<void> {
  await asService((tx) =>
    tx.query("delete from app_private.sessions where member_id = $1 and expires_at <= now()", [memberId]),
  );
}
