import { createHash, randomBytes } from "node:crypto";
import { isUuid } from "../../registry/fields.ts";
import { asService, type Queryable } from "../db/index.ts";

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
export async function createSession(memberId: string, userAgent = ""): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString("base64url");
  const [row] = await asService((tx) =>
    tx.query<{ expires_at: string }>(
      `insert into app_private.sessions (member_id, secret_hash, expires_at, user_agent)
       values ($1, $2, now() + make_interval(days => $3), $4) returning to_jsonb(expires_at) #>> '{}' as expires_at`,
      [memberId, hashSecret(secret), SESSION_DAYS, userAgent.slice(0, 512)],
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
         where secret_hash = $1 and expires_at > now() and revoked_at is null
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

/** Expired (and, for Supabase sessions, revoked and expired) rows of every member; the upkeep task. */
export async function purgeExpiredSessions(tx: Queryable): Promise<number> {
  const rows = await tx.query("delete from app_private.sessions where expires_at <= now() returning id");
  return rows.length;
}

export interface SessionListing {
  id: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** The member's live sessions, newest first (built-in cookies and Supabase sessions alike). */
export async function listSessions(memberId: string): Promise<SessionListing[]> {
  return asService((tx) =>
    tx.query<SessionListing>(
      `select id, user_agent, to_jsonb(created_at) #>> '{}' as created_at,
              to_jsonb(last_seen_at) #>> '{}' as last_seen_at, to_jsonb(expires_at) #>> '{}' as expires_at
       from app_private.sessions
       where member_id = $1 and expires_at > now() and revoked_at is null
       order by last_seen_at desc, id`,
      [memberId],
    ),
  );
}

/**
 * Ends one of the member's own sessions by id (another member's id ends nothing). A cookie session
 * is deleted; a Supabase session is kept as revoked until it would have expired, so its JWTs, which
 * still verify, are refused here.
 */
export async function endSessionById(memberId: string, sessionId: string): Promise<boolean> {
  if (!isUuid(sessionId)) return false;
  const rows = await asService(async (tx) => [
    ...(await tx.query(
      "delete from app_private.sessions where id = $1 and member_id = $2 and auth_session_id is null returning id",
      [sessionId, memberId],
    )),
    ...(await tx.query(
      `update app_private.sessions set revoked_at = now()
       where id = $1 and member_id = $2 and auth_session_id is not null and revoked_at is null returning id`,
      [sessionId, memberId],
    )),
  ]);
  return rows.length > 0;
}

/**
 * Supabase mode: the record of a GoTrue session this service has seen, made on first sight of its
 * session_id and stamped at most hourly. Null when the session was ended here (revoked).
 */
export async function touchAuthSession(
  memberId: string,
  authSessionId: string,
  expiresAt: Date,
  userAgent = "",
): Promise<SessionInfo | null> {
  const [row] = await asService((tx) =>
    tx.query<{ id: string; member_id: string; revoked_at: string | null; expires_at: string }>(
      // A user deleted at GoTrue (or banned) holds a JWT that still verifies until it expires: no row, no session.
      `insert into app_private.sessions (member_id, auth_session_id, expires_at, user_agent)
       select $1, $2, greatest($3::timestamptz, now() + make_interval(days => $5)), $4
       where exists (select 1 from auth.users u where u.id = $1 and u.deleted_at is null
                     and (u.banned_until is null or u.banned_until <= now()))
       on conflict (auth_session_id) do update
         set last_seen_at = case when app_private.sessions.last_seen_at < now() - interval '1 hour'
                                 then now() else app_private.sessions.last_seen_at end,
             expires_at = greatest(app_private.sessions.expires_at, excluded.expires_at)
       returning id, member_id, revoked_at, to_jsonb(expires_at) #>> '{}' as expires_at`,
      [memberId, authSessionId, expiresAt.toISOString(), userAgent.slice(0, 512), SESSION_DAYS],
    ),
  );
  if (!row || row.revoked_at || row.member_id !== memberId) return null;
  return { sessionId: row.id, memberId: row.member_id, expiresAt: new Date(row.expires_at) };
}

/** Supabase mode sign-out: the GoTrue session is over, so its record goes too. */
export async function forgetAuthSession(authSessionId: string): Promise<void> {
  await asService((tx) => tx.query("delete from app_private.sessions where auth_session_id = $1", [authSessionId]));
}
