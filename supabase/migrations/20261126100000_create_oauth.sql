-- The service as its own OAuth 2.1 authorization server (issue 32; docs/decisions/0018-oauth.md).
-- Like access_tokens and sessions: app_private, no grant and no policy, so members never reach these
-- rows with any token; the service reads and writes them (lib/auth/oauth).

-- Clients registered dynamically (RFC 7591). Clients identified by a metadata document (an https
-- client_id) are not stored: their document is fetched and cached in memory.
create table app_private.oauth_clients (
  id text primary key check (char_length(id) between 8 and 100),
  name text not null check (char_length(name) between 1 and 200),
  logo_uri text check (char_length(logo_uri) <= 2000),
  client_uri text check (char_length(client_uri) <= 2000),
  redirect_uris text[] not null check (cardinality(redirect_uris) between 1 and 10),
  created_at timestamptz not null default now(),
  -- Clients unused for a while (no grant, no authorization) expire (upkeep).
  last_used_at timestamptz not null default now()
);
create index oauth_clients_last_used_idx on app_private.oauth_clients (last_used_at);
alter table app_private.oauth_clients enable row level security;

-- One consent: a member let a client act with these scopes and limits on one resource (audience).
create table app_private.oauth_grants (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references auth.users (id) on delete cascade,
  client_id text not null check (char_length(client_id) between 1 and 2000),
  client_name text not null check (char_length(client_name) between 1 and 200),
  client_logo text check (char_length(client_logo) <= 2000),
  redirect_uri text not null check (char_length(redirect_uri) <= 2000),
  resource text not null check (char_length(resource) <= 2000),
  scopes text[] not null,
  -- lib/auth/credential-limits.ts CredentialLimits: {collections?, readOnly?, confirmDestructive?, tools?}.
  limits jsonb not null default '{}' check (jsonb_typeof(limits) = 'object'),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index oauth_grants_member_idx on app_private.oauth_grants (member_id, created_at desc);
alter table app_private.oauth_grants enable row level security;

-- Authorization codes: single use, short lived, bound to client, redirect URI, PKCE challenge and
-- resource. Kept after use (used_at) so a second use is recognised and the grant revoked.
create table app_private.oauth_codes (
  code_hash bytea primary key,
  grant_id uuid not null references app_private.oauth_grants (id) on delete cascade,
  client_id text not null,
  redirect_uri text not null,
  code_challenge text not null check (code_challenge ~ '^[A-Za-z0-9_-]{43}$'),
  resource text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index oauth_codes_grant_idx on app_private.oauth_codes (grant_id);
alter table app_private.oauth_codes enable row level security;

-- Access and refresh tokens, stored only as SHA-256. A grant is one token family: a refresh token
-- presented after it was rotated revokes the grant and with it every token.
create table app_private.oauth_tokens (
  id uuid primary key default gen_random_uuid(),
  grant_id uuid not null references app_private.oauth_grants (id) on delete cascade,
  kind text not null check (kind in ('access', 'refresh')),
  token_hash bytea not null unique,
  expires_at timestamptz not null,
  -- A refresh token's rotation (it was exchanged once); an access token never has it.
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index oauth_tokens_grant_idx on app_private.oauth_tokens (grant_id);
create index oauth_tokens_expires_idx on app_private.oauth_tokens (expires_at);
alter table app_private.oauth_tokens enable row level security;

-- Instances cache access-token look-ups as they cache personal access tokens (lib/auth/token-cache.ts),
-- on the same channel: revoking a token, or a grant (which revokes its tokens), or deleting either
-- (a member's deletion cascades here) announces the token's hash to every instance.
create function app_private.announce_oauth_token_revocation() returns trigger
language plpgsql set search_path = '' as $$
begin
  perform pg_notify('pds_token_revoked', encode(old.token_hash, 'hex'));
  return null;
end;
$$;
revoke all on function app_private.announce_oauth_token_revocation() from public;

create trigger oauth_tokens_announce_revocation
  after update of revoked_at, expires_at, token_hash or delete on app_private.oauth_tokens
  for each row execute function app_private.announce_oauth_token_revocation();

-- Revoking a grant ends its tokens in the same transaction, so the trigger above announces each.
create function app_private.revoke_oauth_grant_tokens() returns trigger
language plpgsql set search_path = '' as $$
begin
  update app_private.oauth_tokens set revoked_at = now() where grant_id = new.id and revoked_at is null;
  return null;
end;
$$;
revoke all on function app_private.revoke_oauth_grant_tokens() from public;

create trigger oauth_grants_revoke_tokens
  after update of revoked_at on app_private.oauth_grants
  for each row when (new.revoked_at is not null and old.revoked_at is null)
  execute function app_private.revoke_oauth_grant_tokens();

-- The member transaction's re-check of an access token served from a cache (lib/db asMember), as
-- assert_token_live does for personal access tokens.
create function app_private.assert_oauth_token_live(token_id uuid) returns void
language plpgsql stable set search_path = '' as $$
begin
  if not exists (
    select 1 from app_private.oauth_tokens t join app_private.oauth_grants g on g.id = t.grant_id
    where t.id = token_id and t.kind = 'access' and t.revoked_at is null and t.expires_at > now()
      and g.revoked_at is null
  ) then
    raise exception 'The token is expired or revoked.' using errcode = 'PDS41';
  end if;
end;
$$;
revoke all on function app_private.assert_oauth_token_live(uuid) from public;
