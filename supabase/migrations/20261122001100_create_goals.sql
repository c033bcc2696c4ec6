-- Something being worked toward, with progress toward a target.
create table public.goals (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 500),
  target_value numeric not null check (target_value >= 0),
  current_value numeric not null default 0 check (current_value >= 0),
  unit text not null default '' check (char_length(unit) <= 50),
  due_on date,
  status text not null default 'active' check (status in ('active', 'achieved', 'abandoned')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index goals_owner_created_idx on public.goals (owner_id, created_at desc, id desc);
create trigger goals_touch before update on public.goals
  for each row execute function app_private.touch_updated_at();

alter table public.goals enable row level security;
revoke all on public.goals from anon, authenticated;
grant select, delete on public.goals to authenticated;
grant insert (title, target_value, current_value, unit, due_on, status) on public.goals to authenticated;
grant update (title, target_value, current_value, unit, due_on, status) on public.goals to authenticated;

create policy "members read their own goals" on public.goals
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "members create their own goals" on public.goals
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "members change their own goals" on public.goals
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "members delete their own goals" on public.goals
  for delete to authenticated using (owner_id = (select auth.uid()));
