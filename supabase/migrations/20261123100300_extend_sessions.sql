-- The session list of the settings pages: which browser, since when, last seen. In Supabase mode
-- the service keeps its own record of each GoTrue session it has seen (the JWT's session_id):
-- GoTrue offers a user no list of their sessions, and a session ended here is refused by this
-- service at once (revoked_at) even while its refresh token lives on at GoTrue.
alter table app_private.sessions
  add column user_agent text not null default '' check (char_length(user_agent) <= 512),
  add column auth_session_id uuid unique,
  add column revoked_at timestamptz,
  alter column secret_hash drop not null,
  add constraint sessions_secret_or_auth_session check (secret_hash is not null or auth_session_id is not null);
