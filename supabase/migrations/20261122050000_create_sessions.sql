-- Browser sessions of the settings pages. The cookie carries a random secret; only its SHA-256 is
-- stored, so a copy of this table signs nobody in. Reached only by the service (asService).
create table app_private.sessions (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references app_private.members (id) on delete cascade,
  secret_hash bytea not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_seen_at timestamptz not null default now()
);
create index sessions_member_idx on app_private.sessions (member_id);
create index sessions_expires_idx on app_private.sessions (expires_at);

-- No policy and no grant: members never read or write sessions directly, with or without a token.
alter table app_private.sessions enable row level security;
revoke all on app_private.sessions from public, anon, authenticated;
