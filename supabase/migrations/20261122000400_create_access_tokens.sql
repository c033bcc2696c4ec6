-- Personal access tokens, stored only as a SHA-256 of the secret.
create table app_private.access_tokens (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references app_private.members (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  token_hash bytea not null unique,
  last4 text not null check (char_length(last4) = 4),
  scopes text[] not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);
create index access_tokens_member_idx on app_private.access_tokens (member_id, created_at desc);
