-- Media uploads (Pro): one row per minted URL. The bytes live in storage (local disk or S3); this
-- row says whose they are, what for, and whether they arrived. Members never touch it directly:
-- they mint through app_private.mint_upload, the service completes, triggers check each use.
create table app_private.uploads (
  key text primary key
    check (key ~ '^(avatar|attachment|artwork)/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  owner_id uuid not null references public.profiles (id) on delete cascade,
  purpose text not null check (purpose in ('avatar', 'attachment', 'artwork')),
  content_type text not null check (content_type ~ '^[a-z0-9.+-]+/[a-z0-9.+-]+$'),
  size bigint not null check (size > 0),
  status text not null default 'pending' check (status in ('pending', 'complete')),
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint uploads_key_matches_purpose check (split_part(key, '/', 1) = purpose)
);
create index uploads_owner_created_idx on app_private.uploads (owner_id, created_at desc);

-- No grant and so no policy: members reach uploads only through the functions below.
alter table app_private.uploads enable row level security;
revoke all on app_private.uploads from anon, authenticated;

-- The plan is checked here, against the member the claims name, so no code path can skip it.
-- Content types and sizes per purpose are validated by the API (the registry lists them).
create function app_private.mint_upload(p_purpose text, p_content_type text, p_size bigint, p_lifetime_seconds integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  member uuid := (select auth.uid());
  member_plan text;
  minted app_private.uploads;
begin
  if member is null then
    raise exception 'uploads need a signed-in member' using errcode = '42501';
  end if;
  select plan into member_plan from public.profiles where id = member;
  if member_plan is distinct from 'pro' then
    raise exception 'uploads need the Pro plan (this member is on %)', coalesce(member_plan, 'no plan')
      using errcode = 'PDS01';
  end if;
  if p_lifetime_seconds not between 1 and 3600 then
    raise exception 'upload URL lifetime must be 1 to 3600 seconds' using errcode = '22023';
  end if;
  insert into app_private.uploads (key, owner_id, purpose, content_type, size, expires_at)
  values (p_purpose || '/' || gen_random_uuid(), member, p_purpose, p_content_type, p_size,
          date_trunc('second', now()) + make_interval(secs => p_lifetime_seconds))
  returning * into minted;
  return jsonb_build_object(
    'key', minted.key,
    'expires_at', minted.expires_at,
    'expires_epoch', extract(epoch from minted.expires_at)::bigint
  );
end $$;
grant execute on function app_private.mint_upload(text, text, bigint, integer) to authenticated;

-- Called by the service once the bytes are stored: pending → complete, once, before expiry, and only
-- for the type and size that were signed. Answers the row's state so the caller can say why not.
create function app_private.complete_upload(p_key text, p_content_type text, p_size bigint)
returns text
language plpgsql security definer set search_path = '' as $$
declare
  found app_private.uploads;
begin
  update app_private.uploads set status = 'complete', completed_at = now()
  where key = p_key and status = 'pending' and expires_at > now()
    and content_type = p_content_type and size = p_size
  returning * into found;
  if found.key is not null then
    return 'completed';
  end if;
  select * into found from app_private.uploads where key = p_key;
  if found.key is null then
    return 'unknown';
  elsif found.status = 'complete' then
    return 'already_complete';
  elsif found.expires_at <= now() then
    return 'expired';
  end if;
  return 'mismatch';
end $$;
