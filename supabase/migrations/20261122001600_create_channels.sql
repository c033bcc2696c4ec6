-- A member's public destination, separate from the profile. Readable by all members; no delete.
create table public.channels (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  handle extensions.citext not null unique check (handle::text ~ '^[A-Za-z0-9_]{3,30}$'),
  title text not null check (char_length(title) between 1 and 200),
  description text not null default '' check (char_length(description) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index channels_created_idx on public.channels (created_at desc, id desc);
create index channels_owner_created_idx on public.channels (owner_id, created_at desc, id desc);
create trigger channels_touch before update on public.channels
  for each row execute function app_private.touch_updated_at();

alter table public.channels enable row level security;
revoke all on public.channels from anon, authenticated;
grant select on public.channels to authenticated;
grant insert (handle, title, description) on public.channels to authenticated;
grant update (handle, title, description) on public.channels to authenticated;

create policy "members read every channel" on public.channels
  for select to authenticated using (true);
create policy "members create their own channels" on public.channels
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "members change their own channels" on public.channels
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
