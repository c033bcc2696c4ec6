-- A habit and its check-ins. The counts are derived from the check-ins: no grant lets a member
-- write them, and check-ins are written only by the check-in function.
create table public.streaks (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 200),
  cadence text not null default 'daily' check (cadence in ('daily')),
  timezone text not null default 'UTC',
  current_count integer not null default 0,
  longest_count integer not null default 0,
  last_check_in_on date,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index streaks_owner_created_idx on public.streaks (owner_id, created_at desc, id desc);
create trigger streaks_touch before update on public.streaks
  for each row execute function app_private.touch_updated_at();
create trigger streaks_timezone before insert or update of timezone on public.streaks
  for each row execute function app_private.check_timezone();

alter table public.streaks enable row level security;
revoke all on public.streaks from anon, authenticated;
grant select, delete on public.streaks to authenticated;
grant insert (name, cadence, timezone) on public.streaks to authenticated;
grant update (name, cadence, timezone) on public.streaks to authenticated;

create policy "members read their own streaks" on public.streaks
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "members create their own streaks" on public.streaks
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "members change their own streaks" on public.streaks
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "members delete their own streaks" on public.streaks
  for delete to authenticated using (owner_id = (select auth.uid()));

create table public.streak_check_ins (
  id uuid primary key default gen_random_uuid(),
  streak_id uuid not null references public.streaks (id) on delete cascade,
  owner_id uuid not null references public.profiles (id) on delete cascade,
  day date not null,
  note text not null default '' check (char_length(note) <= 1000),
  created_at timestamptz not null default now(),
  unique (streak_id, day)
);
create index streak_check_ins_owner_idx on public.streak_check_ins (owner_id);

alter table public.streak_check_ins enable row level security;
revoke all on public.streak_check_ins from anon, authenticated;
grant select on public.streak_check_ins to authenticated;
create policy "members read their own check-ins" on public.streak_check_ins
  for select to authenticated using (owner_id = (select auth.uid()));
