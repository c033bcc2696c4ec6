-- The member's own profile; also the row other members' rows point at (follows, messages).
create table public.profiles (
  id uuid primary key references app_private.members (id) on delete cascade,
  handle extensions.citext not null unique
    check (handle::text ~ '^[A-Za-z0-9_]{3,30}$'),
  display_name text not null default '' check (char_length(display_name) <= 100),
  bio text not null default '' check (char_length(bio) <= 2000),
  avatar_key text,
  timezone text not null default 'UTC',
  attachment_consent text not null default 'following'
    check (attachment_consent in ('everyone', 'following', 'nobody')),
  plan text not null default 'free' check (plan in ('free', 'pro')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger profiles_touch before update on public.profiles
  for each row execute function app_private.touch_updated_at();

-- A timezone the database does not know would make every date computed in it wrong.
create function app_private.check_timezone() returns trigger
language plpgsql set search_path = '' as $$
begin
  if not exists (select 1 from pg_catalog.pg_timezone_names where name = new.timezone) then
    raise exception 'unknown timezone "%"', new.timezone using errcode = '22023';
  end if;
  return new;
end $$;
create trigger profiles_timezone before insert or update of timezone on public.profiles
  for each row execute function app_private.check_timezone();

alter table public.profiles enable row level security;
revoke all on public.profiles from anon, authenticated;
-- plan is absent from the update grant: only an operator changes it.
grant select on public.profiles to authenticated;
grant update (handle, display_name, bio, avatar_key, timezone, attachment_consent) on public.profiles to authenticated;

create policy "members read every profile" on public.profiles
  for select to authenticated using (true);
create policy "members update their own profile" on public.profiles
  for update to authenticated using (id = (select auth.uid())) with check (id = (select auth.uid()));
